import { Badge, Button, CloseButton, Group, NumberInput, Popover, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowsSort } from '@tabler/icons-react';
import { useState } from 'react';
import type { SimilarityInput } from './use-similarity-sort.ts';
import type { SimilaritySort, SortDirection } from '../tab-state.ts';

export interface SimilaritySortControlProps {
  similarity: SimilaritySort | null;
  error: string | null;
  applying: boolean;
  onApply: (input: SimilarityInput) => Promise<boolean>;
  onClear: () => void;
  onInput: () => void;
}

const numberOrNull = (value: string | number): number | null => (value === '' || value === null ? null : Number(value));

/** The form of a similarity sort: SMILES, an optional 0–1 window and the order; the server's message stays beside the input. */
function SimilarityForm({
  initial,
  error,
  applying,
  onApply,
  onInput,
}: {
  initial: SimilaritySort | null;
  error: string | null;
  applying: boolean;
  onApply: SimilaritySortControlProps['onApply'];
  onInput: () => void;
}) {
  const [smiles, setSmiles] = useState(initial?.smiles ?? '');
  const [min, setMin] = useState<number | null>(initial?.min ?? null);
  const [max, setMax] = useState<number | null>(initial?.max ?? null);
  const [order, setOrder] = useState<SortDirection>(initial?.order ?? 'desc');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void onApply({ smiles, min, max, order });
      }}
    >
      <Stack gap="xs">
        <TextInput
          label="SMILES"
          placeholder="e.g. c1ccccc1C(=O)O"
          value={smiles}
          onChange={(event) => {
            setSmiles(event.currentTarget.value);
            onInput();
          }}
          error={error}
          data-autofocus
          data-testid="similarity-smiles"
        />
        <Group grow gap="xs">
          <NumberInput
            label="Min"
            min={0}
            max={1}
            step={0.05}
            decimalScale={3}
            value={min ?? ''}
            onChange={(value) => setMin(numberOrNull(value))}
          />
          <NumberInput
            label="Max"
            min={0}
            max={1}
            step={0.05}
            decimalScale={3}
            value={max ?? ''}
            onChange={(value) => setMax(numberOrNull(value))}
          />
        </Group>
        <SegmentedControl
          size="xs"
          value={order}
          onChange={(value) => setOrder(value as SortDirection)}
          data={[
            { value: 'desc', label: 'Most similar first' },
            { value: 'asc', label: 'Least similar first' },
          ]}
          aria-label="Similarity order"
        />
        <Button type="submit" size="xs" loading={applying}>
          Sort
        </Button>
      </Stack>
    </form>
  );
}

/** Spec §4 "Sort by similarity": a popover form and, while it is on, a badge saying so with a way out. */
export function SimilaritySortControl({ similarity, error, applying, onApply, onClear, onInput }: SimilaritySortControlProps) {
  const [opened, setOpened] = useState(false);
  const on = similarity?.status === true;
  return (
    <Group gap={6} wrap="nowrap">
      <Popover opened={opened} onChange={setOpened} position="bottom-start" shadow="md" width={320} trapFocus withinPortal keepMounted>
        <Popover.Target>
          <Button
            size="xs"
            variant={on ? 'light' : 'default'}
            leftSection={<IconArrowsSort size={14} />}
            onClick={() => setOpened((value) => !value)}
            data-testid="similarity-sort"
          >
            Sort by similarity
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <SimilarityForm
            initial={similarity}
            error={error}
            applying={applying}
            onInput={onInput}
            onApply={async (input) => {
              const ok = await onApply(input);
              if (ok) setOpened(false);
              return ok;
            }}
          />
        </Popover.Dropdown>
      </Popover>
      {/* The server's message stays in sight when the form is closed (an outside click, Escape). */}
      {!opened && error && (
        <Text size="xs" c="red" maw={260} truncate title={error} role="alert" data-testid="similarity-error">
          {error}
        </Text>
      )}
      {on && similarity && (
        <Badge
          variant="light"
          tt="none"
          size="lg"
          rightSection={<CloseButton size="xs" aria-label="Stop sorting by similarity" onClick={onClear} />}
          data-testid="similarity-badge"
        >
          <Text size="xs" span maw={220} truncate>
            Similar to {similarity.smiles}
          </Text>
        </Badge>
      )}
    </Group>
  );
}
