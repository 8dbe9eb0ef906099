import { Badge, Select, Text } from '@mantine/core';
import { useState } from 'react';
import { LOGIN_OUTCOMES, TERM_STATUSES, trackerEndpoints } from '@kb/contracts/admin-trackers';
import type {
  DatasetTrackerQuery,
  DatasetTrackerRow,
  ExportTrackerQuery,
  ExportTrackerRow,
  LoginTrackerQuery,
  LoginTrackerRow,
  SearchTrackerQuery,
  SearchTrackerRow,
  TermTrackerQuery,
} from '@kb/contracts/admin-trackers';
import { callApi } from '../../../app/api-client.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { formatBytes, formatDateTime, successfulAttempt } from '../../../app/format/display-format.ts';
import { TrackerTable } from './tracker-table.tsx';
import type { TrackerColumn } from './tracker-table.tsx';
import { TERM_COLUMNS, TermActions } from './term-curation.tsx';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };
const user = <R extends { userEmail: string | null; organisation: string | null }>(): TrackerColumn<R>[] => [
  { key: 'user', header: 'User', sort: 'user', cell: (r) => r.userEmail ?? '—' },
  { key: 'organisation', header: 'Organisation', cell: (r) => r.organisation ?? '—' },
];

const LOGIN_COLUMNS: TrackerColumn<LoginTrackerRow>[] = [
  ...user<LoginTrackerRow>(),
  { key: 'login', header: 'Login date', sort: 'date', cell: (r) => formatDateTime(r.loginDate), cellProps: nowrap },
  { key: 'logout', header: 'Logout date', cell: (r) => formatDateTime(r.logoutDate), cellProps: nowrap },
  {
    key: 'successful',
    header: 'Successful attempt',
    cell: (r) => (
      <Badge color={r.failed ? 'red' : 'green'} variant="light" title={r.failureReason ?? undefined}>
        {successfulAttempt(r.failed)}
      </Badge>
    ),
  },
  { key: 'ip', header: 'IP address', sort: 'ip', cell: (r) => r.ipAddress ?? '—' },
];

const COUNT_LABELS: [string, string][] = [
  ['stridscount', 'structures'],
  ['actidscount', 'activities'],
  ['assayidscount', 'assays'],
  ['refidscount', 'references'],
];

const SEARCH_COLUMNS: TrackerColumn<SearchTrackerRow>[] = [
  ...user<SearchTrackerRow>(),
  { key: 'date', header: 'Date', sort: 'date', cell: (r) => formatDateTime(r.createdAt), cellProps: nowrap },
  {
    key: 'criteria',
    header: 'Criteria',
    cell: (r) => (
      <Text size="sm" lineClamp={3} title={r.summary}>
        {r.summary}
      </Text>
    ),
    cellProps: { style: { minWidth: 240 } },
  },
  {
    key: 'counts',
    header: 'Counts',
    cell: (r) =>
      r.failed ? (
        <Badge color="red" variant="light">
          Failed
        </Badge>
      ) : (
        <Text size="xs">{COUNT_LABELS.map(([key, label]) => `${formatCount(r.counts?.[key] ?? 0)} ${label}`).join(', ')}</Text>
      ),
  },
  {
    key: 'duration',
    header: 'Duration',
    sort: 'duration',
    align: 'right',
    cell: (r) => `${(r.durationMs / 1000).toFixed(1)} s`,
    cellProps: nowrap,
  },
];

const EXPORT_COLUMNS: TrackerColumn<ExportTrackerRow>[] = [
  ...user<ExportTrackerRow>(),
  { key: 'date', header: 'Date', sort: 'date', cell: (r) => formatDateTime(r.createdAt), cellProps: nowrap },
  { key: 'file', header: 'File', cell: (r) => r.fileName },
  { key: 'format', header: 'Format', cell: (r) => r.format.toUpperCase() },
  { key: 'records', header: 'Records', sort: 'records', align: 'right', cell: (r) => formatCount(r.records) },
  { key: 'credits', header: 'Credits', sort: 'credits', align: 'right', cell: (r) => formatCount(r.credits) },
  { key: 'status', header: 'Status', sort: 'status', cell: (r) => r.status },
  {
    key: 'downloads',
    header: 'Downloads',
    align: 'right',
    cell: (r) => (r.downloads === 0 ? '0' : `${formatCount(r.downloads)} (last ${formatDateTime(r.lastDownloadAt)})`),
  },
];

const DATASET_COLUMNS: TrackerColumn<DatasetTrackerRow>[] = [
  ...user<DatasetTrackerRow>(),
  { key: 'date', header: 'Date', sort: 'date', cell: (r) => formatDateTime(r.createdAt), cellProps: nowrap },
  { key: 'type', header: 'Dataset type', sort: 'datasetType', cell: (r) => r.datasetType ?? '—' },
  { key: 'file', header: 'File', cell: (r) => r.fileName },
  { key: 'description', header: 'Description', cell: (r) => r.description },
  { key: 'size', header: 'Size', sort: 'size', align: 'right', cell: (r) => formatBytes(r.fileSize) },
];

const byId = (row: { id: number }) => row.id;

export function LoginsTracker() {
  const [outcome, setOutcome] = useState<string | null>(null);
  return (
    <TrackerTable
      tracker="logins"
      load={(query, signal) => callApi(trackerEndpoints.logins, { query: query as LoginTrackerQuery }, { signal })}
      columns={LOGIN_COLUMNS}
      rowKey={byId}
      minWidth={900}
      empty="No login matches these filters."
      extraQuery={outcome ? { outcome } : undefined}
      extraFilters={
        <Select
          label="Outcome"
          placeholder="Any"
          data={LOGIN_OUTCOMES.map((o) => ({ value: o, label: o === 'failed' ? 'Failed' : 'Successful' }))}
          value={outcome}
          onChange={setOutcome}
          clearable
          w={150}
        />
      }
    />
  );
}

export function SearchesTracker() {
  return (
    <TrackerTable
      tracker="searches"
      load={(query, signal) => callApi(trackerEndpoints.searches, { query: query as SearchTrackerQuery }, { signal })}
      columns={SEARCH_COLUMNS}
      rowKey={byId}
      minWidth={960}
      empty="No search matches these filters."
    />
  );
}

export function ExportsTracker() {
  return (
    <TrackerTable
      tracker="exports"
      load={(query, signal) => callApi(trackerEndpoints.exports, { query: query as ExportTrackerQuery }, { signal })}
      columns={EXPORT_COLUMNS}
      rowKey={byId}
      minWidth={1000}
      empty="No export matches these filters."
    />
  );
}

export function DatasetsTracker() {
  return (
    <TrackerTable
      tracker="datasets"
      load={(query, signal) => callApi(trackerEndpoints.datasets, { query: query as DatasetTrackerQuery }, { signal })}
      columns={DATASET_COLUMNS}
      rowKey={byId}
      minWidth={900}
      empty="No flat-file download matches these filters."
    />
  );
}

export function TermsTracker() {
  const [status, setStatus] = useState<string | null>('open');
  return (
    <TrackerTable
      tracker="terms"
      load={(query, signal) => callApi(trackerEndpoints.terms, { query: query as TermTrackerQuery }, { signal })}
      columns={[...TERM_COLUMNS, { key: 'actions', header: 'Curation', cell: (row) => <TermActions row={row} /> }]}
      rowKey={byId}
      minWidth={1100}
      empty={status === 'open' ? 'No open reported term matches these filters.' : 'No reported term matches these filters.'}
      extraQuery={status ? { status } : undefined}
      extraFilters={
        <Select
          label="Status"
          placeholder="Any"
          data={TERM_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }))}
          value={status}
          onChange={setStatus}
          clearable
          w={150}
        />
      }
    />
  );
}
