import { Alert, Badge, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CURATION_ENTITY_LABELS, CURATION_ENTITY_OF, UPLOAD_LIST_LABELS, trackerEndpoints } from '@kb/contracts/admin-trackers';
import type { CurationResponse, TermTrackerRow } from '@kb/contracts/admin-trackers';
import type { UploadListType } from '@kb/contracts/uploads';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { endpointQuery } from '../../../app/query.ts';
import { formatDateTime } from '../../../app/format/display-format.ts';
import type { TrackerColumn } from './tracker-table.tsx';

const STATUS_COLORS = { open: 'blue', resolved: 'green', rejected: 'gray' } as const;

const entityLabel = (listType: string) => {
  const entity = CURATION_ENTITY_OF[listType as UploadListType];
  return entity ? CURATION_ENTITY_LABELS[entity] : 'record';
};
const listLabel = (listType: string) => UPLOAD_LIST_LABELS[listType as UploadListType] ?? listType;

export const TERM_COLUMNS: TrackerColumn<TermTrackerRow>[] = [
  {
    key: 'term',
    header: 'Term',
    sort: 'term',
    cell: (r) => (
      <Text size="sm" fw={500} data-testid="term-text">
        {r.term}
      </Text>
    ),
  },
  { key: 'listType', header: 'List type', sort: 'listType', cell: (r) => listLabel(r.listType) },
  { key: 'user', header: 'Reported by', sort: 'user', cell: (r) => r.userEmail ?? '—' },
  { key: 'organisation', header: 'Organisation', cell: (r) => r.organisation ?? '—' },
  {
    key: 'date',
    header: 'Reported',
    sort: 'date',
    cell: (r) => formatDateTime(r.createdAt),
    cellProps: { style: { whiteSpace: 'nowrap' } },
  },
  { key: 'comment', header: 'Comment', cell: (r) => [r.fileName, r.comment].filter(Boolean).join(' — ') || '—' },
  {
    key: 'status',
    header: 'Status',
    sort: 'status',
    cell: (r) => (
      <Stack gap={2}>
        <Badge color={STATUS_COLORS[r.status]} variant="light" data-testid="term-status">
          {r.status}
        </Badge>
        {r.resolvedTo && <Text size="xs">→ {r.resolvedTo.label ?? r.resolvedTo.id}</Text>}
        {r.note && (
          <Text size="xs" c="dimmed">
            “{r.note}”
          </Text>
        )}
        {r.curatedBy && (
          <Text size="xs" c="dimmed">
            {r.curatedBy}, {formatDateTime(r.curatedAt)}
          </Text>
        )}
      </Stack>
    ),
  },
];

type Action = 'resolve' | 'reject';

/** Resolve / Reject of an open term (both administrator roles curate; every decision is audited). */
export function TermActions({ row }: { row: TermTrackerRow }) {
  const [action, setAction] = useState<Action | null>(null);
  if (row.status !== 'open') return null;
  return (
    <>
      <Group gap={4} wrap="nowrap">
        <Button size="xs" variant="light" onClick={() => setAction('resolve')} aria-label={`Resolve ${row.term}`}>
          Resolve
        </Button>
        <Button size="xs" variant="subtle" color="gray" onClick={() => setAction('reject')} aria-label={`Reject ${row.term}`}>
          Reject
        </Button>
      </Group>
      {action && <CurationDialog row={row} action={action} onClose={() => setAction(null)} />}
    </>
  );
}

function CurationDialog({ row, action, onClose }: { row: TermTrackerRow; action: Action; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<{ value: string; label: string; id: number | string } | null>(null);
  const [note, setNote] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const what = entityLabel(row.listType);
  const candidates = useQuery({
    ...endpointQuery(trackerEndpoints.termCandidates, { params: { termId: row.id }, query: { q: debounced } }),
    enabled: action === 'resolve' && debounced.length > 0,
  });
  const found = (candidates.data?.rows ?? []).map((c) => ({ value: String(c.id), label: `${c.label} (${c.id})`, id: c.id }));
  // The picked record stays an option while the search text changes (Select shows its label).
  const options = picked && !found.some((o) => o.value === picked.value) ? [picked, ...found] : found;
  const pickedId = picked?.id ?? null;

  const mutation = useMutation({
    mutationFn: (): Promise<CurationResponse> =>
      action === 'resolve'
        ? callApi(trackerEndpoints.resolveTerm, {
            params: { termId: row.id },
            body: { targetId: pickedId!, ...(note.trim() ? { note } : {}) },
          })
        : callApi(trackerEndpoints.rejectTerm, { params: { termId: row.id }, body: note.trim() ? { note } : {} }),
    onSuccess: async (answer) => {
      notifications.show({ color: 'green', title: action === 'resolve' ? 'Term resolved' : 'Term rejected', message: answer.message });
      await queryClient.invalidateQueries({ queryKey: ['trackers', 'terms'] });
      onClose();
    },
  });

  return (
    <Modal opened onClose={onClose} title={action === 'resolve' ? `Resolve “${row.term}”` : `Reject “${row.term}”`} size="lg">
      <Stack>
        <Text size="sm">
          {action === 'resolve'
            ? `Pick the ${what} this term of a ${listLabel(row.listType)} list means. It becomes a synonym: the next upload of a ${listLabel(row.listType)} list identifies it.`
            : 'The term stays unidentified in uploads. Other open reports of the same term are closed with it.'}
        </Text>
        {action === 'resolve' && (
          <Select
            label={`The ${what}`}
            description="Type part of a name, or an id"
            placeholder="Search…"
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            data={options.map(({ value, label }) => ({ value, label }))}
            value={picked?.value ?? null}
            onChange={(value) => setPicked(options.find((o) => o.value === value) ?? null)}
            filter={({ options: all }) => all}
            nothingFoundMessage={
              debounced
                ? candidates.isFetching
                  ? 'Searching…'
                  : candidates.isError
                    ? errorMessage(candidates.error)
                    : `No ${what} matches`
                : `Type to search`
            }
            data-testid="curation-target"
            data-autofocus
          />
        )}
        <Textarea
          label="Note"
          description="Kept with the decision and in the audit log"
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={1000}
          autosize
          minRows={2}
        />
        {mutation.isError && (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={() => mutation.mutate()}
            loading={mutation.isPending}
            disabled={action === 'resolve' && pickedId === null}
            color={action === 'resolve' ? undefined : 'red'}
          >
            {action === 'resolve' ? 'Resolve as synonym' : 'Reject term'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
