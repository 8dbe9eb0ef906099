import { Button, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { DownloadHistoryRow } from '@kb/contracts/exports';
import { exportEndpoints } from '@kb/contracts/exports';
import { endpointQuery } from '../../app/query.ts';
import { QueryView } from '../../app/ui/query-view.tsx';
import { useSaveFile } from '../export/export-job-card.tsx';
import { formatCount } from '../../app/format/count-format.ts';
import { formatBytes, formatDateTime } from '../../app/format/display-format.ts';

const STATUS_COLORS: Record<string, string> = {
  done: 'green.8',
  downloaded: 'green.8',
  queued: 'dimmed',
  running: 'blue',
  deleted: 'dimmed',
};

/** The history's status is free text ("done", "downloaded", "failed (credits returned)"…): a failure of any wording is red. */
function statusColor(status: string): string {
  return status.startsWith('failed') ? 'red' : (STATUS_COLORS[status] ?? 'dimmed');
}

function DownloadAgainButton({ row }: { row: DownloadHistoryRow }) {
  const save = useSaveFile();
  if (row.fileId === null) return null;
  const fileId = row.fileId;
  return (
    <Button
      size="compact-sm"
      variant="light"
      leftSection={<IconDownload size={14} />}
      loading={save.isPending}
      onClick={() => save.mutate({ fileId, fileName: row.fileName })}
      title="Downloading a file again uses no credits"
      data-testid="history-download"
    >
      Download again (free)
    </Button>
  );
}

/** Spec dashboard "download history" (`exportlogs/export`): every export and flat-file download, with the credits it used. */
export function DownloadHistoryTab() {
  const query = useQuery(endpointQuery(exportEndpoints.downloadHistory, {}));
  return (
    <QueryView
      query={query}
      isEmpty={(data) => data.rows.length === 0}
      empty="No downloads yet. Every export and flat-file download you make, with the credits it used, will appear here."
    >
      {(data) => (
        <Stack gap="sm">
          <Text size="sm" data-testid="history-balance" data-value={data.creditBalance}>
            Download balance: <b>{formatCount(data.creditBalance)}</b> credits
          </Text>
          <Table.ScrollContainer minWidth={900}>
            <Table striped highlightOnHover verticalSpacing="sm" data-testid="download-history-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Description</Table.Th>
                  <Table.Th>File</Table.Th>
                  <Table.Th ta="right">Rows</Table.Th>
                  <Table.Th ta="right">Credits</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.rows.map((row) => (
                  <Table.Tr key={`${row.kind}-${row.id}`} data-testid="history-row" data-kind={row.kind}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.downloadedOn)}</Table.Td>
                    <Table.Td>{row.description}</Table.Td>
                    <Table.Td>
                      <Stack gap={0}>
                        <Text size="sm">{row.fileName}</Text>
                        {row.fileSize !== null && (
                          <Text size="xs" c="dimmed">
                            {formatBytes(row.fileSize)}
                          </Text>
                        )}
                      </Stack>
                    </Table.Td>
                    <Table.Td ta="right">{row.rows === null ? '—' : formatCount(row.rows)}</Table.Td>
                    <Table.Td ta="right">{formatCount(row.credits)}</Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={500} c={statusColor(row.status)}>
                        {row.status.charAt(0).toUpperCase() + row.status.slice(1)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <DownloadAgainButton row={row} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      )}
    </QueryView>
  );
}
