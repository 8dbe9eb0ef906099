import type { LoginTrackerRow } from '@kb/contracts/admin-trackers';
import { DataTable } from '../../app/ui/data-table.tsx';
import type { DataColumn } from '../../app/ui/data-table.tsx';
import { loginColumns } from '../dashboard/login-columns.tsx';

const COLUMNS: readonly DataColumn<LoginTrackerRow>[] = [
  { key: 'user', header: 'User', cell: (row) => row.userEmail ?? '—' },
  ...loginColumns<LoginTrackerRow>(),
  { key: 'ip', header: 'IP address', cell: (row) => row.ipAddress ?? '—' },
];

export function TrackersTable({ rows, testId }: { rows: readonly LoginTrackerRow[]; testId?: string }) {
  return <DataTable columns={COLUMNS} rows={rows} rowKey={(row) => row.id} minWidth={640} testId={testId} />;
}
