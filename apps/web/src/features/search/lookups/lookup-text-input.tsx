import { Autocomplete, Loader } from '@mantine/core';
import type { ComboboxItem } from '@mantine/core';
import { useState } from 'react';
import type { ReactNode } from 'react';
import type { LookupResult } from '@kb/contracts/lookups';
import type { LookupSource } from './lookup-sources.ts';
import { useLookup } from './use-lookup.ts';

export interface LookupTextInputProps {
  label?: ReactNode;
  description?: ReactNode;
  placeholder?: string;
  source: LookupSource;
  value: string;
  onChange: (value: string) => void;
  /** Called when a suggestion is taken (after onChange with its label). */
  onPick?: (item: LookupResult) => void;
  /** List suggestions before anything is typed (units of an activity type). */
  suggestOnFocus?: boolean;
  error?: ReactNode;
  disabled?: boolean;
  w?: number | string;
  'aria-label'?: string;
}

/**
 * One text value with server suggestions (journal, strain, activity type, unit). What is typed
 * stays as typed; a suggestion replaces it. The server already ranks and filters the options.
 */
export function LookupTextInput({ source, value, onChange, onPick, suggestOnFocus = false, ...props }: LookupTextInputProps) {
  const [focused, setFocused] = useState(false);
  const { items, loading } = useLookup(source, value, { enabled: focused, allowEmpty: suggestOnFocus });
  // Labels are what the field holds; a label listed twice (two synonyms) is offered once.
  const data: ComboboxItem[] = [...new Map(items.map((item) => [item.label, { value: item.label, label: item.label }])).values()];
  return (
    <Autocomplete
      {...props}
      value={value}
      data={data}
      filter={({ options }) => options}
      limit={50}
      onChange={onChange}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      onOptionSubmit={(label) => {
        const item = items.find((candidate) => candidate.label === label);
        if (item) onPick?.(item);
      }}
      rightSection={loading ? <Loader size={14} aria-label="Loading suggestions" /> : null}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
