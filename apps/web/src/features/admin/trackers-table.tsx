import { Badge } from '@mantine/core';
import type { TrackerRow } from '@kb/contracts/admin';
import { DataTable } from '../../app/ui/data-table.tsx';
import type { DataColumn } from '../../app/ui/data-table.tsx';
import { formatDateTime, successfulAttempt } from '../dashboard/format.ts';

const COLUMNS: readonly DataColumn<TrackerRow>[] = [
  { key: 'user', header: 'User', cell: (row) => row.userName },
  { key: 'login', header: 'Login date', cell: (row) => formatDateTime(row.loginDate) },
  { key: 'logout', header: 'Logout date', cell: (row) => formatDateTime(row.logoutDate) },
  {
    key: 'successful',
    header: 'Successful attempt',
    cell: (row) => (
      <Badge color={row.failed ? 'red' : 'green'} variant="light">
        {successfulAttempt(row.failed)}
      </Badge>
    ),
  },
  { key: 'ip', header: 'IP address', cell: (row) => row.ipAddress ?? '—' },
];

export function TrackersTable({ rows, testId }: { rows: readonly TrackerRow[]; testId?: string }) {
  return <DataTable columns={COLUMNS} rows={rows} rowKey={(row, index) => `${row.userName}-${row.loginDate}-${index}`} minWidth={640} testId={testId} />;
}
