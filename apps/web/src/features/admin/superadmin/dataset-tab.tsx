import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { Alert, Badge, Button, Card, Group, List, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DatasetState, RebuildJob } from '@kb/contracts/superadmin';
import { superAdminEndpoints } from '@kb/contracts/superadmin';
import { KB_ENTITY_LABELS } from '@kb/contracts/kb-loads';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { endpointKey, endpointQuery } from '../../../app/query.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { QueryView } from '../../../app/ui/query-view.tsx';
import { formatDateTime } from '../../../app/format/display-format.ts';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td>{label}</Table.Td>
      <Table.Td ta="right">{children}</Table.Td>
    </Table.Tr>
  );
}

function share(part: number, whole: number): string {
  return `${formatCount(part)} of ${formatCount(whole)}`;
}

function RebuildCard({ initial }: { initial: RebuildJob }) {
  const client = useQueryClient();
  // Polled while a rebuild runs (this process's job); otherwise read once with the data set.
  const status = useQuery({
    ...endpointQuery(superAdminEndpoints.rebuildStatus, {}),
    initialData: initial,
    refetchInterval: (query) => (query.state.data?.state === 'running' ? 1000 : false),
  });
  const start = useMutation({
    mutationFn: () => callApi(superAdminEndpoints.rebuild, {}),
    onSuccess: (job) => client.setQueryData(endpointKey(superAdminEndpoints.rebuildStatus, {}), job),
  });
  const job = status.data;
  const running = job.state === 'running';
  // A rebuild that finishes while the tab is open changes the figures above: read them again.
  const seenFinish = useRef(initial.finishedAt);
  useEffect(() => {
    if (job.finishedAt && job.finishedAt !== seenFinish.current) {
      seenFinish.current = job.finishedAt;
      void client.invalidateQueries({ queryKey: endpointKey(superAdminEndpoints.dataset) });
    }
  }, [job.finishedAt, client]);

  return (
    <Card withBorder radius="md" padding="lg" data-testid="rebuild">
      <Title order={4} mb="sm">
        Derived data
      </Title>
      <Text size="sm" mb="sm">
        Rebuilds the autocomplete terms and the tree counts from the knowledge base, computes missing structure fingerprints and refreshes
        the structure index. Searches keep working on the old data while it runs; run it after loading data by hand.
      </Text>
      <Group>
        <Button leftSection={<IconRefresh size={16} />} loading={start.isPending} disabled={running} onClick={() => start.mutate()}>
          Rebuild derived data
        </Button>
        {job.state !== 'idle' && (
          <Badge color={job.state === 'failed' ? 'red' : job.state === 'done' ? 'green' : 'blue'} variant="light">
            {job.state === 'running' ? `Running: ${job.step ?? ''}` : job.state === 'done' ? 'Done' : 'Failed'}
          </Badge>
        )}
      </Group>
      {start.isError && (
        <Alert color="red" variant="light" mt="sm" role="alert">
          {errorMessage(start.error)}
        </Alert>
      )}
      {job.state !== 'idle' && (
        <Stack gap="xs" mt="md">
          <Progress value={job.percent} animated={running} aria-label="Rebuild progress" />
          <Text size="xs" c="dimmed">
            Started {formatDateTime(job.startedAt)} by {job.startedBy ?? '—'}
            {job.finishedAt ? `, finished ${formatDateTime(job.finishedAt)}` : ''}
          </Text>
          {job.log.length > 0 && (
            <List size="sm">
              {job.log.map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
          )}
          {job.error && (
            <Alert color="red" variant="light" role="alert">
              {job.error}
            </Alert>
          )}
        </Stack>
      )}
    </Card>
  );
}

function DatasetCards({ data }: { data: DatasetState }) {
  const index = data.structureIndex;
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder radius="md" padding="lg">
          <Title order={4} mb="sm">
            Data set
          </Title>
          <Table>
            <Table.Tbody>
              <Row label="Loaded">
                <Badge variant="light" data-testid="dataset-label">
                  {data.label}
                </Badge>
              </Row>
              <Row label="Sources">{data.sources.length ? data.sources.map((s) => s.name).join(', ') : '—'}</Row>
              <Row label="Last seed or import">{formatDateTime(data.lastLoadAt)}</Row>
              {data.counts.map((c) => (
                <Row key={c.table} label={KB_ENTITY_LABELS[c.table] ?? c.table}>
                  {c.estimated ? `≈ ${formatCount(c.rows)}` : formatCount(c.rows)}
                </Row>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Title order={4} mb="sm">
            Structure index
          </Title>
          <Table>
            <Table.Tbody>
              <Row label="Structures">{formatCount(index.structures)}</Row>
              <Row label="With similarity fingerprint">{share(index.withMorganFingerprint, index.structures)}</Row>
              <Row label="With substructure fingerprint">{share(index.withPatternFingerprint, index.structures)}</Row>
              <Row label="With scaffold (SAR cache)">{share(index.withScaffold, index.structures)}</Row>
              <Row label="Search engine on this server">
                {index.engine.state === 'idle'
                  ? 'not loaded yet (loads at the first structure search)'
                  : `${index.engine.state}: ${share(index.engine.loaded, index.engine.total)}`}
              </Row>
              <Row label="Tree counts built">{formatDateTime(data.treesRefreshedAt)}</Row>
              <Row label="Autocomplete entries">{formatCount(data.lookupEntries)}</Row>
            </Table.Tbody>
          </Table>
        </Card>
      </SimpleGrid>
      <RebuildCard initial={data.rebuild} />
    </Stack>
  );
}

export function DatasetTab() {
  const query = useQuery(endpointQuery(superAdminEndpoints.dataset, {}));
  return <QueryView query={query}>{(data) => <DatasetCards data={data} />}</QueryView>;
}
