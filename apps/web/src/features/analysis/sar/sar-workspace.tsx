import { Alert, Button, Card, Collapse, Group, Progress, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { IconAlertCircle, IconChevronDown, IconChevronUp, IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useEffect, useMemo, useState } from 'react';
import type { SarCoreInput, SarData, SarDifference, SarEndpoint, SarEndpointOption, SarProgress, SarTable } from '@kb/contracts/sar';
import { sarEndpoints } from '@kb/contracts/sar';
import { errorMessage, isApiRequestError } from '../../../app/api-client.ts';
import { EmptyState } from '../../../app/ui/query-view.tsx';
import { useMayOpen } from '../../../app/use-route-access.ts';
import { CliffsTab } from './cliffs-tab.tsx';
import type { CliffsChoice } from './cliffs-tab.tsx';
import { CorePicker } from './core-picker.tsx';
import { EndpointPicker } from './endpoint-picker.tsx';
import { FreeWilsonTab } from './free-wilson-tab.tsx';
import { PairsTab } from './pairs-tab.tsx';
import { RGroupMatrixTab } from './rgroup-matrix-tab.tsx';
import { SarExport } from './sar-export.tsx';
import { CompareEndpoints, overlapOf } from './compare-endpoints.tsx';
import { endpointLetter, endpointName, measureOf, pickedCoreHighlight, sameEndpoint } from './sar-model.ts';
import { runBody, useCancelSar, useSarCores, useSarOverlap, useSarProgress, useSarTable } from './sar-queries.ts';
import type { SarRun, SarTabKey } from './sar-store.ts';
import { SAR_TABS, sarKey, useSarStore } from './sar-store.ts';
import { SarTableTab, coreHighlights } from './sar-table-tab.tsx';

const TAB_LABELS: Record<SarTabKey, string> = {
  table: 'SAR table',
  matrix: 'R-group matrix',
  freewilson: 'Free-Wilson',
  cliffs: 'Activity cliffs',
  pairs: 'Matched pairs',
};

const PHASES: Record<SarProgress['phase'], string> = {
  idle: 'Starting…',
  cores: 'Matching the cores…',
  decompose: 'Decomposing the compounds into R-groups…',
  pairs: 'Finding the matched pairs…',
};

function RunProgress({ progress, onCancel }: { progress: SarProgress | undefined; onCancel: () => void }) {
  const percent = progress && progress.total > 0 ? Math.round((100 * progress.done) / progress.total) : 0;
  return (
    <Stack gap={4} role="status" data-testid="sar-progress">
      <Group justify="space-between">
        <Text size="sm">
          {PHASES[progress?.phase ?? 'idle']} {progress && progress.total > 0 ? `${progress.done} of ${progress.total}` : ''}
        </Text>
        <Button
          size="compact-sm"
          variant="default"
          color="red"
          leftSection={<IconPlayerStop size={14} />}
          onClick={onCancel}
          data-testid="sar-cancel"
        >
          Cancel
        </Button>
      </Group>
      <Progress value={percent} animated={percent === 0} aria-label="Progress of the SAR table" />
    </Stack>
  );
}

/**
 * An invalid core answers 400 with RDKit's message (details.field 'cores'): it belongs beside the
 * cores; any other refusal (an empty difference column, an endpoint without values) in the alert.
 */
function isCoreError(error: unknown): boolean {
  if (!isApiRequestError(error) || error.status !== 400) return false;
  const details = error.details as { field?: unknown } | null | undefined;
  return details?.field === 'cores';
}

/** What the folded set-up says: the endpoints (A, B …) and the cores of the table on screen. */
function setupSummary(run: SarRun | null, options: readonly SarEndpointOption[]): string {
  if (!run) return '';
  const endpoints = [run.endpoint, ...(run.moreEndpoints ?? [])].map((e, index) => {
    const option = options.find((o) => sameEndpoint(o, e));
    return `${endpointLetter(index)} = ${option ? endpointName(option) : `${e.activityType} · target ${e.targetId}`}`;
  });
  const differences = (run.differences ?? []).map((d) => `${endpointLetter(d.a)} − ${endpointLetter(d.b)}`);
  return [
    ...endpoints,
    ...(differences.length ? [differences.join(', ')] : []),
    `${run.cores.length} ${run.cores.length === 1 ? 'core' : 'cores'}`,
  ].join(' · ');
}

/** The endpoints (A, B …) and difference columns the cliffs can compare, named as the table names them. */
function cliffsChoices(
  options: readonly SarEndpointOption[],
  endpoints: readonly SarEndpoint[],
  differences: readonly SarDifference[],
): CliffsChoice[] {
  const name = (e: SarEndpoint) => {
    const option = options.find((o) => sameEndpoint(o, e));
    return option ? endpointName(option) : `${e.activityType} · target ${e.targetId}`;
  };
  const several = endpoints.length > 1;
  return [
    ...endpoints.map((e, index) => ({
      measure: { kind: 'endpoint' as const, index },
      label: `${several ? `${endpointLetter(index)}: ` : ''}${name(e)}`,
      endpoint: e,
      minus: null,
    })),
    ...differences.flatMap((d, index) =>
      endpoints[d.a] && endpoints[d.b]
        ? [
            {
              measure: { kind: 'difference' as const, index },
              label: `${endpointLetter(d.a)} − ${endpointLetter(d.b)}: difference in pActivity`,
              endpoint: endpoints[d.a]!,
              minus: endpoints[d.b]!,
            },
          ]
        : [],
    ),
  ];
}

function NeedsTable({ what }: { what: string }) {
  return <EmptyState>Choose a core and build the SAR table to see {what}.</EmptyState>;
}

export interface SarWorkspaceProps {
  sessionId: string;
  data: SarData;
}

/** The SAR view of one set of rows: endpoint, cores, the run, and the five analyses in tabs. */
export function SarWorkspace({ sessionId, data }: SarWorkspaceProps) {
  const key = sarKey(sessionId, `${data.tab}/${data.createdAt}`);
  const store = useSarStore();
  const { open, update } = store;
  useEffect(() => open(key), [open, key]);
  const mine = store.key === key;
  const options = useMemo(() => [...data.endpoints, ...data.measuredEndpoints], [data]);
  // Choices stored for another set of rows, or an endpoint these rows no longer have, are none.
  const known = (e: SarEndpoint | null) => e !== null && options.some((option) => sameEndpoint(option, e));
  const endpoint: SarEndpoint | null = mine && known(store.endpoint) ? store.endpoint : null;
  const moreEndpoints = mine && endpoint ? (store.moreEndpoints ?? []).filter(known) : [];
  const differences = mine && moreEndpoints.length === (store.moreEndpoints ?? []).length ? (store.differences ?? []) : [];
  const cores = mine ? store.cores : [];
  const run = mine && store.run && sameEndpoint(store.run.endpoint, endpoint) ? store.run : null;
  const activeTab = mine ? store.activeTab : 'table';

  const suggestions = useSarCores(sessionId, endpoint);
  const overlap = useSarOverlap(sessionId, endpoint, moreEndpoints);
  // A difference column no compound of A has a value for is refused here, as the server refuses it.
  const emptyDifference = differences.some((d) => overlapOf(overlap.data, d) === 0);
  const table = useSarTable(sessionId, run);
  // The set-up folds once a table is on screen (the table gets the room); it opens again on demand.
  const [setupOpen, setSetupOpen] = useState(run === null);
  useEffect(() => {
    if (table.data) setSetupOpen(false);
  }, [table.data]);
  const running = table.isFetching;
  const progress = useSarProgress(sessionId, running);
  const cancel = useCancelSar(sessionId);
  const mayExport = useMayOpen()('/export');
  // The run the user stopped: the store forgets it (so the button builds again), this says what happened.
  const [stopped, setStopped] = useState(false);
  const highlight = table.data ? (coreHighlights(table.data)[0] ?? null) : pickedCoreHighlight(cores[0]);

  const setCores = (next: SarCoreInput[]) => update({ cores: next });
  const start = () => {
    if (!endpoint || cores.length === 0 || emptyDifference) return;
    setStopped(false);
    update({ run: { endpoint, moreEndpoints, differences, cores } });
  };
  const stop = async () => {
    await cancel(sarEndpoints.sarTable.path);
    update({ run: null });
    setStopped(true);
  };
  const upToDate =
    run !== null && JSON.stringify(runBody(run)) === JSON.stringify(runBody({ endpoint: run.endpoint, moreEndpoints, differences, cores }));

  const tableContent = (render: (value: SarTable) => ReactNode, what: string) =>
    table.data ? render(table.data) : running ? <Skeleton h={240} /> : <NeedsTable what={what} />;

  return (
    <Stack gap="md">
      <Card withBorder padding="md" radius="md" data-testid="sar-setup">
        {table.data && (
          <Group justify="space-between" wrap="nowrap" mb={setupOpen ? 'md' : 0}>
            <Text size="sm" truncate="end" title={setupSummary(run, options)} data-testid="sar-setup-summary">
              <Text span fw={600}>
                Set-up:
              </Text>{' '}
              {setupSummary(run, options)}
            </Text>
            <Button
              size="compact-sm"
              variant="subtle"
              rightSection={setupOpen ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
              onClick={() => setSetupOpen((open) => !open)}
              aria-expanded={setupOpen}
              data-testid="sar-setup-toggle"
              style={{ flexShrink: 0 }}
            >
              {setupOpen ? 'Fold the set-up' : 'Change the set-up'}
            </Button>
          </Group>
        )}
        <Collapse expanded={setupOpen || !table.data}>
          <Stack gap="md">
            <EndpointPicker
              options={options}
              value={endpoint}
              onChange={(next) => {
                setStopped(false);
                update({ endpoint: next, moreEndpoints: [], differences: [], measure: null, run: null });
              }}
            />
            {endpoint && (
              <CompareEndpoints
                options={options}
                endpoint={endpoint}
                more={moreEndpoints}
                differences={differences}
                overlap={overlap.data}
                onChange={(change) => update(change)}
              />
            )}
            {endpoint && (
              <CorePicker
                suggestions={{
                  data: suggestions.data,
                  pending: suggestions.isPending,
                  error: suggestions.error,
                  retry: () => void suggestions.refetch(),
                }}
                cores={cores}
                onChange={setCores}
                coreError={table.isError && isCoreError(table.error) ? errorMessage(table.error) : null}
              />
            )}
            {endpoint && (
              <Group gap="sm">
                <Button
                  leftSection={<IconPlayerPlay size={16} />}
                  disabled={cores.length === 0 || running || upToDate || emptyDifference}
                  onClick={start}
                  data-testid="sar-run"
                >
                  {run ? 'Build the table again' : 'Build the SAR table'}
                </Button>
                {cores.length === 0 && (
                  <Text size="sm" c="dimmed">
                    Pick or draw a core first.
                  </Text>
                )}
                {table.data && (
                  <Text size="xs" c="dimmed">
                    Built in {(table.data.durationMs / 1000).toFixed(1)} s
                  </Text>
                )}
              </Group>
            )}
            {running && <RunProgress progress={progress.data} onCancel={() => void stop()} />}
            {stopped && !running && (
              <Alert
                color="gray"
                variant="light"
                icon={<IconPlayerStop size={18} />}
                title="Stopped"
                role="status"
                data-testid="sar-stopped"
              >
                The SAR table was stopped before it was built. Choose “Build the SAR table” to build it again.
              </Alert>
            )}
            {table.isError && !isCoreError(table.error) && (
              <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title="The SAR table could not be built" role="alert">
                <Text size="sm" mb="xs">
                  {errorMessage(table.error)}
                </Text>
                <Button size="xs" variant="light" color="red" onClick={() => void table.refetch()}>
                  Try again
                </Button>
              </Alert>
            )}
          </Stack>
        </Collapse>
        {mayExport && table.data && endpoint && run && (
          <div style={{ marginTop: 'var(--mantine-spacing-sm)' }}>
            <SarExport sessionId={sessionId} run={run} compounds={table.data.rows.length} />
          </div>
        )}
      </Card>

      {endpoint ? (
        <Tabs
          value={activeTab}
          onChange={(value) => value && update({ activeTab: value as SarTabKey })}
          keepMounted={false}
          data-testid="sar-tabs"
        >
          <Tabs.List>
            {SAR_TABS.map((tab) => (
              <Tabs.Tab key={tab} value={tab} data-testid={`sar-tab-${tab}`}>
                {TAB_LABELS[tab]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="table" pt="md">
            {tableContent(
              (value) => (
                <SarTableTab table={value} />
              ),
              'the compounds and their R-groups',
            )}
          </Tabs.Panel>
          <Tabs.Panel value="matrix" pt="md">
            {tableContent(
              (value) => (
                <RGroupMatrixTab
                  table={value}
                  measure={measureOf(value, store.measure ?? null)}
                  onMeasure={(measure) => update({ measure })}
                  axes={store.matrixAxes}
                  onAxes={(matrixAxes) => update({ matrixAxes })}
                />
              ),
              'the R-group matrix',
            )}
          </Tabs.Panel>
          <Tabs.Panel value="freewilson" pt="md">
            {tableContent(
              (value) => (
                <FreeWilsonTab
                  table={value}
                  measure={measureOf(value, store.measure ?? null)}
                  onMeasure={(measure) => update({ measure })}
                />
              ),
              'the Free-Wilson analysis',
            )}
          </Tabs.Panel>
          <Tabs.Panel value="cliffs" pt="md">
            <CliffsTab
              sessionId={sessionId}
              choices={cliffsChoices(options, [endpoint, ...moreEndpoints], differences)}
              choice={store.cliffsMeasure ?? null}
              onChoice={(cliffsMeasure) => update({ cliffsMeasure })}
              minSimilarity={store.minSimilarity}
              minDelta={store.minDelta}
              onThresholds={update}
              highlight={highlight}
            />
          </Tabs.Panel>
          <Tabs.Panel value="pairs" pt="md">
            <PairsTab sessionId={sessionId} endpoint={endpoint} minPairs={store.minPairs} onMinPairs={(minPairs) => update({ minPairs })} />
          </Tabs.Panel>
        </Tabs>
      ) : (
        <EmptyState>
          {options.length
            ? 'Choose an endpoint to start.'
            : 'None of these compounds has an activity with a value: there is nothing to relate the structures to.'}
        </EmptyState>
      )}
    </Stack>
  );
}
