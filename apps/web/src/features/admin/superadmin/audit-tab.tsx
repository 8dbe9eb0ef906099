import { useState } from 'react';
import { Badge, Button, Group, Pagination, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditQuery, AuditRow } from '@kb/contracts/superadmin';
import { AUDIT_TARGET_TYPES, superAdminEndpoints } from '@kb/contracts/superadmin';
import { endpointQuery } from '../../../app/query.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { DataTable } from '../../../app/ui/data-table.tsx';
import type { DataColumn } from '../../../app/ui/data-table.tsx';
import { QueryView } from '../../../app/ui/query-view.tsx';
import { formatDateTime } from '../../../app/format/display-format.ts';
import { saveBlob } from '../../../app/ui/save-blob.ts';
import { auditChanges } from './audit-diff.ts';
import { auditCsv, auditCsvFileName } from './audit-csv.ts';

const PAGE_SIZE = 25;

function Changes({ row }: { row: AuditRow }) {
  const changes = auditChanges(row.before, row.after);
  if (changes.length === 0)
    return (
      <Text size="xs" c="dimmed">
        —
      </Text>
    );
  return (
    <Stack gap={2}>
      {changes.map((change) => (
        <Text key={change.field} size="xs" title={change.field}>
          <b>{change.label}</b>: {change.before ?? '—'} → {change.after ?? '—'}
        </Text>
      ))}
    </Stack>
  );
}

const COLUMNS: readonly DataColumn<AuditRow>[] = [
  { key: 'when', header: 'When', cell: (row) => formatDateTime(row.createdAt), cellProps: { style: { whiteSpace: 'nowrap' } } },
  { key: 'actor', header: 'By', cell: (row) => row.actorEmail },
  // The whole action name, never cut to "cred…": the badge keeps its width and the cell does not wrap it.
  {
    key: 'action',
    header: 'Action',
    cell: (row) => (
      <Badge variant="light" tt="none" style={{ maxWidth: 'none', overflow: 'visible' }}>
        {row.action}
      </Badge>
    ),
    cellProps: { style: { whiteSpace: 'nowrap' } },
  },
  {
    key: 'target',
    header: 'Target',
    cell: (row) => row.targetLabel ?? (row.targetId ? `${row.targetType} ${row.targetId}` : row.targetType),
  },
  { key: 'changes', header: 'Before → after', cell: (row) => <Changes row={row} /> },
];

/** The rows shown, as a CSV file the browser saves (one line per changed field). */
function downloadCsv(rows: readonly AuditRow[]): void {
  saveBlob(new Blob([auditCsv(rows)], { type: 'text/csv;charset=utf-8' }), auditCsvFileName());
}

export function AuditTab() {
  const [text, setText] = useState('');
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [targetType, setTargetType] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [typed] = useDebouncedValue({ text: text.trim(), actor: actor.trim(), action: action.trim() }, 300);
  const query: AuditQuery = {
    page,
    pageSize: PAGE_SIZE,
    ...(typed.text ? { q: typed.text } : {}),
    ...(typed.actor ? { actor: typed.actor } : {}),
    ...(typed.action ? { action: typed.action } : {}),
    ...(targetType ? { targetType: targetType as AuditQuery['targetType'] } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const result = useQuery({ ...endpointQuery(superAdminEndpoints.audit, { query }), placeholderData: keepPreviousData });
  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap" gap="sm">
        <TextInput
          label="Search"
          placeholder="Any text"
          value={text}
          onChange={(e) => filter(setText)(e.currentTarget.value)}
          w={200}
          data-testid="audit-search"
        />
        <TextInput
          label="By"
          placeholder="Administrator’s e-mail"
          value={actor}
          onChange={(e) => filter(setActor)(e.currentTarget.value)}
          w={200}
        />
        <TextInput
          label="Action"
          placeholder="e.g. role or role.grant"
          value={action}
          onChange={(e) => filter(setAction)(e.currentTarget.value)}
          w={170}
        />
        <Select
          label="Target"
          placeholder="Any"
          clearable
          data={[...AUDIT_TARGET_TYPES]}
          value={targetType}
          onChange={filter(setTargetType)}
          w={140}
        />
        <TextInput label="From" type="date" value={from} onChange={(e) => filter(setFrom)(e.currentTarget.value)} w={150} />
        <TextInput label="To" type="date" value={to} onChange={(e) => filter(setTo)(e.currentTarget.value)} w={150} />
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          disabled={!result.data?.rows.length}
          onClick={() => result.data && downloadCsv(result.data.rows)}
        >
          CSV of this page
        </Button>
      </Group>
      <QueryView query={result} keepsPrevious isEmpty={(data) => data.total === 0} empty="No audit entries match.">
        {(data) => (
          <>
            <Text size="sm" c="dimmed">
              {formatCount(data.total)} {data.total === 1 ? 'entry' : 'entries'}, newest first
            </Text>
            <DataTable
              columns={COLUMNS}
              rows={data.rows}
              rowKey={(row) => row.id}
              minWidth={900}
              testId="audit-log"
              rowData={(row) => ({ 'data-action': row.action })}
            />
            {data.total > PAGE_SIZE && (
              <Pagination total={Math.ceil(data.total / PAGE_SIZE)} value={page} onChange={setPage} aria-label="Audit log pages" />
            )}
          </>
        )}
      </QueryView>
    </Stack>
  );
}
