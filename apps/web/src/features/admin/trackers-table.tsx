import type { TrackerRow } from '@kb/contracts/admin';
import { DataTable } from '../../app/ui/data-table.tsx';
import type { DataColumn } from '../../app/ui/data-table.tsx';
import { loginColumns } from '../dashboard/login-columns.tsx';

const COLUMNS: readonly DataColumn<TrackerRow>[] = [
  { key: 'user', header: 'User', cell: (row) => row.userName },
  ...loginColumns<TrackerRow>(),
  { key: 'ip', header: 'IP address', cell: (row) => row.ipAddress ?? '—' },
];

export function TrackersTable({ rows, testId }: { rows: readonly TrackerRow[]; testId?: string }) {
  return <DataTable columns={COLUMNS} rows={rows} rowKey={(row, index) => `${row.userName}-${row.loginDate}-${index}`} minWidth={640} testId={testId} />;
}
