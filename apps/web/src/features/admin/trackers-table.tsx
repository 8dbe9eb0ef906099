import { Badge, Table } from '@mantine/core';
import type { TrackerRow } from '@kb/contracts/admin';
import { formatDateTime, successfulAttempt } from '../dashboard/format.ts';

export function TrackersTable({ rows, testId }: { rows: readonly TrackerRow[]; testId?: string }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>User</Table.Th>
            <Table.Th>Login date</Table.Th>
            <Table.Th>Logout date</Table.Th>
            <Table.Th>Successful attempt</Table.Th>
            <Table.Th>IP address</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={`${row.userName}-${row.loginDate}-${index}`}>
              <Table.Td>{row.userName}</Table.Td>
              <Table.Td>{formatDateTime(row.loginDate)}</Table.Td>
              <Table.Td>{formatDateTime(row.logoutDate)}</Table.Td>
              <Table.Td>
                <Badge color={row.failed ? 'red' : 'green'} variant="light">
                  {successfulAttempt(row.failed)}
                </Badge>
              </Table.Td>
              <Table.Td>{row.ipAddress ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
