import { Alert, Button, Card, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconFilter, IconFilterOff, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { ResultsSession } from '@kb/contracts/results';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import type { DraftOf } from '../../search/builder/row-drafts.ts';
import { newDraft } from '../../search/builder/row-drafts.ts';
import { toCriteriaRow } from '../../search/builder/row-criteria.ts';
import type { FieldErrors } from '../../search/builder/row-criteria.ts';
import { rowToDraft } from '../../search/builder/row-restore.ts';
import { StructureEditor } from '../../search/rows/structure-editor.tsx';
import type { ResultsScope } from '../results-store.ts';
import type { StructureFilterMode, StructureFilterRow } from './structure-filter.ts';
import { describeStructureFilter } from './structure-filter.ts';
import { useStructureFilter } from './use-structure-filter.ts';

type StructureDraft = DraftOf<'structure'>;

/** A fresh filter: a SMILES substructure, as chemists filter most often. */
function emptyDraft(): StructureDraft {
  const draft = newDraft('structure') as StructureDraft;
  return { ...draft, inputType: 'smiles', category: 'substructure', resultFilter: true };
}

/** The query drawn for the active filter (a molfile or name is described in words instead). */
function FilterPicture({ row }: { row: StructureFilterRow }) {
  const query = row.structure;
  if (!query || (query.inputType !== 'smiles' && query.inputType !== 'smarts')) return null;
  const props = query.inputType === 'smarts' ? { smarts: query.value } : { smiles: query.value };
  return <StructureImage {...props} width={220} height={120} alt={`Filter structure ${query.value}`} />;
}

/**
 * "Filter by structure" beside the charts (docs/results.md "Structure filter"): substructure,
 * SMARTS, a drawn structure, a similarity window and property ranges, to include or exclude.
 * Every tab's rows and counts follow; the chart filters stay.
 */
export function StructureFilterPanel({ scope, session, tab }: { scope: ResultsScope; session: ResultsSession; tab: ResultTabKey }) {
  const filter = useStructureFilter(scope, session, tab);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<StructureDraft>(emptyDraft);
  const [mode, setMode] = useState<StructureFilterMode>('include');
  const [errors, setErrors] = useState<FieldErrors>({});
  if (!filter.available) return null;

  const open = () => {
    setDraft(filter.active ? (rowToDraft(filter.active.row) as StructureDraft) : emptyDraft());
    setMode(filter.active?.mode ?? 'include');
    setErrors({});
    filter.clearError();
    setEditing(true);
  };
  const apply = async () => {
    const conversion = toCriteriaRow(draft);
    if (!conversion.row) {
      setErrors(conversion.empty ? { value: 'Enter a structure, a property range or structure ids to filter by.' } : conversion.errors);
      return;
    }
    if (await filter.apply(conversion.row as StructureFilterRow, mode)) setEditing(false);
  };

  return (
    <Card withBorder padding="sm" data-testid="structure-filter">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600} size="sm">
            Structure filter
          </Text>
          {filter.active && (
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              leftSection={<IconFilterOff size={14} />}
              loading={filter.running && !editing}
              onClick={() => void filter.remove()}
              data-testid="structure-filter-remove"
            >
              Remove
            </Button>
          )}
        </Group>
        {filter.active ? (
          <>
            <FilterPicture row={filter.active.row} />
            <Text size="sm" data-testid="structure-filter-summary">
              {describeStructureFilter(filter.active.row, filter.active.mode)}
            </Text>
            <Button size="xs" variant="light" leftSection={<IconPencil size={14} />} onClick={open}>
              Change
            </Button>
          </>
        ) : (
          <>
            <Text size="xs" c="dimmed">
              Keep or leave out the rows of structures with a ring, a SMARTS pattern, a drawn structure, a similarity or property window.
            </Text>
            <Button size="xs" variant="light" leftSection={<IconFilter size={14} />} onClick={open} data-testid="structure-filter-open">
              Filter by structure…
            </Button>
          </>
        )}
        {filter.error && !editing && (
          <Alert color="red" variant="light" p="xs" data-testid="structure-filter-error">
            {filter.error}
          </Alert>
        )}
      </Stack>
      <Modal
        opened={editing}
        onClose={() => setEditing(false)}
        title="Filter the results by structure"
        size="xl"
        data-testid="structure-filter-modal"
      >
        <Stack gap="sm">
          <SegmentedControl
            aria-label="Keep or leave out"
            data={[
              { value: 'include', label: 'Keep structures that match' },
              { value: 'exclude', label: 'Leave out structures that match' },
            ]}
            value={mode}
            onChange={(value) => setMode(value as StructureFilterMode)}
          />
          <StructureEditor draft={draft} errors={errors} update={(change) => setDraft((current) => change(current))} />
          {errors.value && (
            <Text size="sm" c="red">
              {errors.value}
            </Text>
          )}
          {filter.error && (
            <Alert color="red" variant="light" data-testid="structure-filter-error">
              {filter.error}
            </Alert>
          )}
          <Text size="xs" c="dimmed">
            The filter searches only the structures of these results; every tab and its counts follow, and your chart filters stay. Saving
            the search keeps it.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setEditing(false)}>
              Cancel
            </Button>
            <Button onClick={() => void apply()} loading={filter.running} data-testid="structure-filter-apply">
              Apply filter
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
