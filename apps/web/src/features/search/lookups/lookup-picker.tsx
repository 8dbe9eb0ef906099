import { Button, CloseButton, Combobox, Group, Loader, Pill, PillsInput, Text, useCombobox } from '@mantine/core';
import { useEffect, useId, useState } from 'react';
import type { ReactNode } from 'react';
import type { LookupResult } from '@kb/contracts/lookups';
import { errorMessage } from '../../../app/api-client.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import type { LookupSource } from './lookup-sources.ts';
import { useLookup } from './use-lookup.ts';

/** A chip already in the field. */
export interface PickerChip {
  key: string;
  label: string;
  title?: string;
}

/** Chips shown before "+N more": thousands of uploaded terms must not render thousands of pills. */
const VISIBLE_CHIPS = 30;
const FREE_VALUE = '\u0000free';

export interface LookupPickerProps {
  label: ReactNode;
  description?: ReactNode;
  placeholder?: string;
  source: LookupSource;
  chips: readonly PickerChip[];
  onPick: (item: LookupResult) => void;
  /** Allows text the look-up does not know (sent as typed). */
  onFree?: (text: string) => void;
  /** What the as-typed option says (default: Use “text” as typed). */
  freeLabel?: (typed: string) => ReactNode;
  /** More texts to offer as typed (e.g. the text as a prefix, “JAK*”): each picked goes to onFree. */
  freeChoices?: (typed: string) => { text: string; label: ReactNode }[];
  /** The text being typed, as it changes. */
  onSearchChange?: (text: string) => void;
  onRemove: (key: string) => void;
  onClear?: () => void;
  error?: ReactNode;
  /** Extra controls beside the label (upload button). */
  rightOfLabel?: ReactNode;
  'data-testid'?: string;
}

export function ChipPills({ chips, onRemove }: { chips: readonly PickerChip[]; onRemove: (key: string) => void }) {
  const [showAll, setShowAll] = useState(false);
  const visible = showAll ? chips : chips.slice(0, VISIBLE_CHIPS);
  return (
    <>
      {visible.map((chip) => (
        <Pill
          key={chip.key}
          withRemoveButton
          onRemove={() => onRemove(chip.key)}
          title={chip.title ?? chip.label}
          removeButtonProps={{ 'aria-label': `Remove ${chip.label}` }}
        >
          {chip.label}
        </Pill>
      ))}
      {chips.length > VISIBLE_CHIPS && (
        <Button size="compact-xs" variant="subtle" onClick={() => setShowAll((value) => !value)}>
          {showAll ? 'Show fewer' : `+${formatCount(chips.length - VISIBLE_CHIPS)} more`}
        </Button>
      )}
    </>
  );
}

/**
 * A multi-value autocomplete (spec "auto-complete items"): type, pick with the arrow keys and
 * Enter, remove with Backspace or the chip's ×. Suggestions come from the server as you type;
 * loading, no-match and failure each say so in the dropdown.
 */
export function LookupPicker(props: LookupPickerProps) {
  const { source, chips, onPick, onFree, onRemove, onClear } = props;
  const [search, setSearch] = useState('');
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const { items, loading, answered, error } = useLookup(source, search, { enabled: combobox.dropdownOpened });
  const inputId = useId();
  const typed = search.trim();

  // The best match is highlighted so Enter takes it; with no match, the as-typed option is.
  useEffect(() => {
    if (combobox.dropdownOpened) combobox.selectFirstOption();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [items, typed]);

  const choices = typed && onFree && props.freeChoices ? props.freeChoices(typed) : [];
  const changeSearch = (text: string) => {
    setSearch(text);
    props.onSearchChange?.(text);
  };

  const submit = (value: string) => {
    if (value === FREE_VALUE) {
      if (typed && onFree) onFree(typed);
    } else if (value.startsWith(FREE_VALUE)) {
      const choice = choices[Number(value.slice(FREE_VALUE.length))];
      if (choice && onFree) onFree(choice.text);
    } else {
      const item = items.find((candidate) => String(candidate.id) === value);
      if (item) onPick(item);
    }
    changeSearch('');
    combobox.selectFirstOption();
  };

  const options = items.map((item) => (
    <Combobox.Option value={String(item.id)} key={String(item.id)}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <div>
          <Text size="sm">{item.label}</Text>
          {item.detail && (
            <Text size="xs" c="dimmed">
              {item.detail}
            </Text>
          )}
        </div>
        {item.count != null && (
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {formatCount(item.count)}
          </Text>
        )}
      </Group>
    </Combobox.Option>
  ));

  return (
    <div data-testid={props['data-testid']}>
      <Combobox store={combobox} onOptionSubmit={submit} withinPortal>
        <Combobox.DropdownTarget>
          <PillsInput
            id={inputId}
            label={
              props.rightOfLabel ? (
                <Group gap="xs" component="span">
                  <span>{props.label}</span>
                  {props.rightOfLabel}
                </Group>
              ) : (
                props.label
              )
            }
            description={props.description}
            error={props.error}
            onClick={() => combobox.openDropdown()}
            rightSection={
              loading ? (
                <Loader size={14} aria-label="Loading suggestions" />
              ) : chips.length > 0 && onClear ? (
                <CloseButton size="sm" aria-label="Remove all" onClick={onClear} />
              ) : null
            }
          >
            <Pill.Group>
              <ChipPills chips={chips} onRemove={onRemove} />
              <Combobox.EventsTarget>
                <PillsInput.Field
                  value={search}
                  placeholder={chips.length === 0 ? props.placeholder : undefined}
                  onFocus={() => combobox.openDropdown()}
                  onBlur={() => combobox.closeDropdown()}
                  onChange={(event) => {
                    combobox.openDropdown();
                    changeSearch(event.currentTarget.value);
                  }}
                  onKeyDown={(event) => {
                    if (event.key === 'Backspace' && search.length === 0 && chips.length > 0) {
                      event.preventDefault();
                      const last = chips[chips.length - 1];
                      if (last) onRemove(last.key);
                    }
                  }}
                />
              </Combobox.EventsTarget>
            </Pill.Group>
          </PillsInput>
        </Combobox.DropdownTarget>
        <Combobox.Dropdown hidden={!typed && items.length === 0}>
          <Combobox.Options mah={280} style={{ overflowY: 'auto' }} aria-label="Suggestions">
            {options}
            {typed && onFree && (
              <Combobox.Option value={FREE_VALUE}>
                <Text size="sm">{props.freeLabel ? props.freeLabel(typed) : <>Use “{typed}” as typed</>}</Text>
              </Combobox.Option>
            )}
            {choices.map((choice, index) => (
              <Combobox.Option value={`${FREE_VALUE}${index}`} key={`${FREE_VALUE}${index}`}>
                <Text size="sm">{choice.label}</Text>
              </Combobox.Option>
            ))}
            {error ? (
              <Combobox.Empty>
                <Text size="sm" c="red">
                  Suggestions could not load: {errorMessage(error)}
                </Text>
              </Combobox.Empty>
            ) : loading && items.length === 0 ? (
              <Combobox.Empty>
                <Group gap={6} wrap="nowrap" data-testid="lookup-loading">
                  <Loader size={12} />
                  <span>Searching…</span>
                </Group>
              </Combobox.Empty>
            ) : answered && typed && items.length === 0 ? (
              // Only once the server answered for exactly this text: never while a request is in flight.
              <Combobox.Empty>No matches for “{typed}”.</Combobox.Empty>
            ) : null}
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
    </div>
  );
}
