import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Card, Checkbox, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { IconDatabaseImport } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { KbLoad, ReleaseFile, ReleaseImportJob } from '@kb/contracts/kb-loads';
import { kbReleaseEndpoints } from '@kb/contracts/kb-loads';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { endpointKey, endpointQuery } from '../../../app/query.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { EmptyState, QueryView } from '../../../app/ui/query-view.tsx';
import { formatDateTime } from '../../../app/format/display-format.ts';
import { useConfirmAction } from '../subscriptions/use-confirm-action.tsx';
import { LoadReport } from './load-report.tsx';
import { ModelAdminCard } from '../../prediction/model-admin-card.tsx';

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** The running import (polled each second while it runs) or the last one's result. */
function ImportStatus({ job }: { job: ReleaseImportJob }) {
  if (job.state === 'idle') return null;
  const running = job.state === 'running';
  return (
    <Stack gap="xs" mt="md" data-testid="import-status" data-state={job.state} data-percent={Math.round(job.percent)}>
      <Group gap="xs">
        <Badge color={job.state === 'failed' ? 'red' : job.state === 'done' ? 'green' : 'blue'} variant="light">
          {running ? 'Importing' : job.state === 'done' ? 'Done' : 'Failed'}
        </Badge>
        <Text size="sm">
          {job.file}
          {job.step ? ` — ${job.step}` : ''}
        </Text>
      </Group>
      <Progress value={job.percent} animated={running} aria-label="Import progress" />
      <Text size="xs" c="dimmed">
        {formatCount(job.rowsRead)} of {formatCount(job.rowsTotal)} rows read · started {formatDateTime(job.startedAt)} by{' '}
        {job.startedBy ?? '—'}
        {job.finishedAt ? `, finished ${formatDateTime(job.finishedAt)}` : ''}
      </Text>
      {job.error && (
        <Alert color={job.state === 'failed' ? 'red' : 'yellow'} variant="light" role="alert">
          {job.error}
        </Alert>
      )}
    </Stack>
  );
}

function ReleaseFilesCard() {
  const client = useQueryClient();
  const files = useQuery(endpointQuery(kbReleaseEndpoints.releaseFiles, {}));
  const status = useQuery({
    ...endpointQuery(kbReleaseEndpoints.importStatus, {}),
    refetchInterval: (query) => (query.state.data?.state === 'running' ? 1000 : false),
  });
  const [allowMixed, setAllowMixed] = useState(false);
  const [confirm, confirmDialog] = useConfirmAction();
  const start = useMutation({
    mutationFn: (file: string) => callApi(kbReleaseEndpoints.startImport, { body: { file, allowMixed } }),
    onSuccess: (job) => client.setQueryData(endpointKey(kbReleaseEndpoints.importStatus, {}), job),
  });
  const job = status.data;
  const running = job?.state === 'running';
  // When an import finishes, the loads list and the data-set figures change: read them again.
  const seenFinish = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (!job) return;
    if (seenFinish.current !== undefined && job.finishedAt && job.finishedAt !== seenFinish.current) {
      void client.invalidateQueries({ queryKey: endpointKey(kbReleaseEndpoints.loads) });
    }
    seenFinish.current = job.finishedAt;
  }, [job, client]);

  const importFile = async (file: ReleaseFile) => {
    const ok = await confirm({
      title: `Import ${file.name}?`,
      detail:
        'Rows of the release are added or updated; rows of an earlier ChEMBL release that this one no longer has are retired (kept aside, left out of searches). Searches keep working while it runs; it can take long for a full release.',
      confirmLabel: 'Import',
    });
    if (ok) start.mutate(file.name);
  };

  return (
    <Card withBorder radius="md" padding="lg" data-testid="release-files">
      {confirmDialog}
      <Title order={4} mb="xs">
        Release files
      </Title>
      <QueryView
        query={files}
        isEmpty={(data) => data.files.length === 0}
        empty="No .db files in the import folder yet. Copy a ChEMBL SQLite release there (see Loading a new release in the administration guide)."
      >
        {(data) => (
          <>
            <Text size="sm" c="dimmed" mb="xs">
              Import folder: <code>{data.folder}</code>
            </Text>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>File</Table.Th>
                  <Table.Th ta="right">Size</Table.Th>
                  <Table.Th>Modified</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.files.map((file) => (
                  <Table.Tr key={file.name} data-file={file.name}>
                    <Table.Td>{file.name}</Table.Td>
                    <Table.Td ta="right">{megabytes(file.sizeBytes)}</Table.Td>
                    <Table.Td>{formatDateTime(file.modifiedAt)}</Table.Td>
                    <Table.Td ta="right">
                      <Button
                        size="xs"
                        leftSection={<IconDatabaseImport size={14} />}
                        disabled={running || start.isPending}
                        onClick={() => void importFile(file)}
                        aria-label={`Import ${file.name}`}
                      >
                        Import / update
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        )}
      </QueryView>
      <Checkbox
        mt="sm"
        checked={allowMixed}
        onChange={(e) => setAllowMixed(e.currentTarget.checked)}
        label="Allow mixing with demo data"
        description="Only for trying things out: synthetic demo records and real ChEMBL records would look alike in every search."
      />
      {start.isError && (
        <Alert color="red" variant="light" mt="sm" role="alert">
          {errorMessage(start.error)}
        </Alert>
      )}
      {job && <ImportStatus job={job} />}
    </Card>
  );
}

const STATUS_COLOR: Record<KbLoad['status'], string> = { running: 'blue', complete: 'green', partial: 'yellow', failed: 'red' };

function LoadsCard() {
  const loads = useQuery(endpointQuery(kbReleaseEndpoints.loads, {}));
  const [selected, setSelected] = useState<number | null>(null);
  return (
    <Card withBorder radius="md" padding="lg" data-testid="loads">
      <Title order={4} mb="xs">
        Loads
      </Title>
      <QueryView query={loads} isEmpty={(data) => data.loads.length === 0} empty="No loads recorded yet.">
        {(data) => {
          const shown = data.loads.find((l) => l.loadId === selected) ?? data.loads[0];
          return (
            <Stack>
              <Table highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>#</Table.Th>
                    <Table.Th>Kind</Table.Th>
                    <Table.Th>Release</Table.Th>
                    <Table.Th>Started</Table.Th>
                    <Table.Th>Finished</Table.Th>
                    <Table.Th>Status</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.loads.map((load) => (
                    <Table.Tr
                      key={load.loadId}
                      data-load={load.loadId}
                      aria-selected={load.loadId === shown?.loadId}
                      bg={load.loadId === shown?.loadId ? 'var(--mantine-color-blue-light)' : undefined}
                    >
                      <Table.Td>
                        <Button
                          variant="subtle"
                          size="compact-sm"
                          onClick={() => setSelected(load.loadId)}
                          aria-label={`Show the report of load ${load.loadId}`}
                        >
                          {load.loadId}
                        </Button>
                      </Table.Td>
                      <Table.Td>{load.kind}</Table.Td>
                      <Table.Td>{load.label}</Table.Td>
                      <Table.Td>{formatDateTime(load.startedAt)}</Table.Td>
                      <Table.Td>{formatDateTime(load.finishedAt)}</Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOR[load.status]} variant="light">
                          {load.status}
                        </Badge>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {shown ? (
                <>
                  <Title order={5}>
                    Report of load {shown.loadId}: {shown.kind} {shown.label}
                  </Title>
                  <LoadReport load={shown} />
                </>
              ) : (
                <EmptyState>Choose a load.</EmptyState>
              )}
            </Stack>
          );
        }}
      </QueryView>
    </Card>
  );
}

/** /superadmin "Releases": import a ChEMBL release from the import folder, every load's report, and the target-prediction model. */
export function ReleasesTab() {
  return (
    <Stack>
      <ReleaseFilesCard />
      <LoadsCard />
      <ModelAdminCard />
    </Stack>
  );
}
