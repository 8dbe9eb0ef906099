import { Badge, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { dashboardEndpoints } from '@kb/contracts/api';
import { endpointQuery } from '../../app/query.ts';
import { QueryView } from '../../app/ui/query-view.tsx';
import { formatDateTime, formatDuration, successfulAttempt } from './format.ts';

export function LoginHistoryTab() {
  const query = useQuery(endpointQuery(dashboardEndpoints.loginHistory, {}));
  return (
    <QueryView query={query} isEmpty={(data) => data.rows.length === 0} empty="No logins recorded yet.">
      {(data) => (
        <Table.ScrollContainer minWidth={600}>
          <Table striped highlightOnHover data-testid="login-history-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Login date</Table.Th>
                <Table.Th>Logout date</Table.Th>
                <Table.Th>Successful attempt</Table.Th>
                <Table.Th>Duration</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.rows.map((row, index) => (
                <Table.Tr key={`${row.loginDate}-${index}`}>
                  <Table.Td>{formatDateTime(row.loginDate)}</Table.Td>
                  <Table.Td>{formatDateTime(row.logoutDate)}</Table.Td>
                  <Table.Td>
                    <Badge color={row.failed ? 'red' : 'green'} variant="light">
                      {successfulAttempt(row.failed)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatDuration(row.TotalDuration_seconds)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </QueryView>
  );
}
