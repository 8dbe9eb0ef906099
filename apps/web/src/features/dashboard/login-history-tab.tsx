import { useQuery } from '@tanstack/react-query';
import type { LoginHistoryRow } from '@kb/contracts/dashboard';
import { dashboardEndpoints } from '@kb/contracts/api';
import { endpointQuery } from '../../app/query.ts';
import { DataTable } from '../../app/ui/data-table.tsx';
import type { DataColumn } from '../../app/ui/data-table.tsx';
import { QueryView } from '../../app/ui/query-view.tsx';
import { formatDuration } from '../../app/format/display-format.ts';
import { loginColumns } from './login-columns.tsx';

const COLUMNS: readonly DataColumn<LoginHistoryRow>[] = [
  ...loginColumns<LoginHistoryRow>(),
  { key: 'duration', header: 'Duration', cell: (row) => formatDuration(row.TotalDuration_seconds) },
];

export function LoginHistoryTab() {
  const query = useQuery(endpointQuery(dashboardEndpoints.loginHistory, {}));
  return (
    <QueryView query={query} isEmpty={(data) => data.rows.length === 0} empty="No logins recorded yet.">
      {(data) => (
        <DataTable
          columns={COLUMNS}
          rows={data.rows}
          rowKey={(row, index) => `${row.loginDate}-${index}`}
          minWidth={600}
          testId="login-history-table"
        />
      )}
    </QueryView>
  );
}
