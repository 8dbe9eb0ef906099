import { CloseButton, Group, Pill, PillsInput } from '@mantine/core';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { ChipPills } from './lookup-picker.tsx';

/** Separators between entries typed or pasted into a list field. */
const SEPARATORS = /[\n\r\t,;]+/;

export interface TextListInputProps {
  label: ReactNode;
  description?: ReactNode;
  placeholder?: string;
  values: readonly string[];
  onChange: (values: string[]) => void;
  /** Also split on spaces (id lists: "12 15 18"). */
  splitOnSpace?: boolean;
  error?: ReactNode;
  rightOfLabel?: ReactNode;
  'data-testid'?: string;
}

function split(text: string, splitOnSpace: boolean): string[] {
  return text
    .split(splitOnSpace ? /[\s,;]+/ : SEPARATORS)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * A list of typed entries (ids, DOIs, authors): Enter, comma or a pasted list adds them; Backspace
 * removes the last. Long lists (uploads) show the first entries and a "+N more" switch.
 */
export function TextListInput({
  label,
  description,
  placeholder,
  values,
  onChange,
  splitOnSpace = false,
  error,
  rightOfLabel,
  ...rest
}: TextListInputProps) {
  const [draft, setDraft] = useState('');
  const add = (text: string) => {
    const entries = split(text, splitOnSpace);
    if (entries.length === 0) return;
    onChange([...new Set([...values, ...entries])]);
    setDraft('');
  };
  const chips = values.map((value) => ({ key: value, label: value }));
  return (
    <PillsInput
      label={
        rightOfLabel ? (
          <Group gap="xs" component="span">
            <span>{label}</span>
            {rightOfLabel}
          </Group>
        ) : (
          label
        )
      }
      description={description}
      error={error}
      data-testid={rest['data-testid']}
      rightSection={values.length > 0 ? <CloseButton size="sm" aria-label="Remove all" onClick={() => onChange([])} /> : null}
    >
      <Pill.Group>
        <ChipPills chips={chips} onRemove={(key) => onChange(values.filter((value) => value !== key))} />
        <PillsInput.Field
          value={draft}
          placeholder={values.length === 0 ? placeholder : undefined}
          onChange={(event) => {
            const text = event.currentTarget.value;
            // A separator typed at the end closes the entry.
            if (/[,;\n]$/.test(text) || (splitOnSpace && /\s$/.test(text))) add(text);
            else setDraft(text);
          }}
          onPaste={(event) => {
            const text = event.clipboardData.getData('text');
            if (split(text, splitOnSpace).length > 1) {
              event.preventDefault();
              add(`${draft}${text}`);
            }
          }}
          onBlur={() => add(draft)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add(draft);
            } else if (event.key === 'Backspace' && draft.length === 0 && values.length > 0) {
              event.preventDefault();
              onChange(values.slice(0, -1));
            }
          }}
        />
      </Pill.Group>
    </PillsInput>
  );
}
