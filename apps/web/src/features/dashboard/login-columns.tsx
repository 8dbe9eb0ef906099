import { Badge } from '@mantine/core';
import type { DataColumn } from '../../app/ui/data-table.tsx';
import { formatDateTime, successfulAttempt } from '../../app/format/display-format.ts';

/** A login as the user's history and the administrators' trackers both show it. */
interface LoginLike {
  loginDate: string;
  logoutDate: string | null;
  failed: boolean;
}

/** Login date, logout date and "Successful attempt" (spec §3 shows `failed` that way). */
export function loginColumns<T extends LoginLike>(): DataColumn<T>[] {
  return [
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
  ];
}
