import { Alert, Badge, Button, Drawer, Group, Progress, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconPlayerStop, IconSearch, IconTargetArrow } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { ACTIVE_THRESHOLD_NM, PREDICTION_CONFIDENT_PROBABILITY, PREDICTION_SELECTION_MAX } from '@kb/contracts/prediction';
import type { AggregatedTarget } from '@kb/contracts/prediction';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { EmptyState } from '../../app/ui/query-view.tsx';
import { SortableTh } from '../../app/ui/leaflet-ui.tsx';
import { useSortedRows } from '../../app/ui/use-sorted-rows.ts';
import type { SortValue } from '../../app/ui/use-sorted-rows.ts';
import type { SelectionToolProps } from '../results/results-slots.tsx';
import { PredictionDisclaimer } from './predicted-targets-panel.tsx';
import { TargetBadges } from './target-badges.tsx';
import { NUMERIC, formatProbability } from './prediction-format.ts';
import { ProbabilityBar } from './prediction-cells.tsx';
import { tallyPredictions } from './selection-batches.ts';
import { useSearchTargetActives } from './use-prediction.ts';
import type { SelectionRun } from './use-selection-prediction.ts';
import { SELECTION_TARGET_LIMIT, useSelectionPrediction } from './use-selection-prediction.ts';

type Column = 'target' | 'predicted' | 'measured' | 'unmeasured' | 'meanProbability' | 'bestProbability';

function sortValue(target: AggregatedTarget, column: Column): SortValue {
  return column === 'target' ? target.name : target[column];
}

function RunProgress({ run, onCancel }: { run: SelectionRun; onCancel: () => void }) {
  const busy = run.status === 'resolving' || run.status === 'running';
  const percent = run.total > 0 ? (run.done / run.total) * 100 : 0;
  const label =
    run.status === 'resolving'
      ? 'Reading the selected structures…'
      : `${formatCount(run.done)} of ${countNoun(run.total, 'structure')} predicted`;
  return (
    <Stack gap={4} data-testid="selection-prediction-progress" data-status={run.status} data-done={run.done} data-total={run.total}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" style={NUMERIC} aria-live="polite">
          {label}
          {run.status === 'cancelled' && ' — cancelled; the table covers the structures answered before'}
        </Text>
        {busy && (
          <Button
            size="compact-sm"
            variant="default"
            color="red"
            leftSection={<IconPlayerStop size={14} />}
            onClick={onCancel}
            data-testid="selection-prediction-cancel"
          >
            Cancel
          </Button>
        )}
      </Group>
      <Progress
        value={run.status === 'resolving' ? 100 : percent}
        animated={busy}
        striped={run.status === 'resolving'}
        color={run.status === 'cancelled' ? 'gray' : run.status === 'failed' ? 'red' : undefined}
        aria-label="Prediction progress"
        aria-valuenow={Math.round(percent)}
      />
    </Stack>
  );
}

function AggregateTable({ targets, compounds }: { targets: AggregatedTarget[]; compounds: number }) {
  const value = useCallback((target: AggregatedTarget, column: Column) => sortValue(target, column), []);
  const { sorted, sort, toggle } = useSortedRows<AggregatedTarget, Column>(targets, value, { column: 'predicted', direction: 'desc' });
  const actives = useSearchTargetActives();
  const th = (column: Column, label: string, align: 'left' | 'right' = 'right') => (
    <SortableTh
      label={label}
      align={align}
      active={sort.column === column}
      direction={sort.direction}
      onSort={() => toggle(column, column === 'target' ? 'asc' : 'desc')}
    />
  );
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={720}>
        {actives.confirmDialog}
        <Table
          verticalSpacing={6}
          highlightOnHover
          data-testid="selection-prediction-table"
          aria-label="Targets predicted for the selection"
        >
          <Table.Thead>
            <Table.Tr>
              {th('target', 'Target', 'left')}
              {th('predicted', 'Compounds predicted')}
              {th('measured', 'Of which measured')}
              {th('unmeasured', 'Unmeasured (hypotheses)')}
              {th('meanProbability', 'Mean probability')}
              {th('bestProbability', 'Best probability')}
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sorted.map((target) => (
              <Table.Tr key={target.key} data-testid="selection-prediction-target" data-target-id={target.targetId ?? ''}>
                {/* The name keeps room to read on one or two lines; the figures' headers wrap instead. */}
                <Table.Td miw={220}>
                  <Stack gap={2}>
                    <Text size="sm" fw={500} lh={1.3}>
                      {target.name}
                    </Text>
                    <TargetBadges geneSymbol={target.geneSymbol} family={target.family} />
                  </Stack>
                </Table.Td>
                <Table.Td ta="right" style={NUMERIC}>
                  <Text size="sm" fw={600}>
                    {formatCount(target.predicted)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    of {formatCount(compounds)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right" style={NUMERIC}>
                  {formatCount(target.measured)}
                </Table.Td>
                <Table.Td ta="right" style={NUMERIC}>
                  {target.unmeasured > 0 ? (
                    <Badge variant="light" color="orange" size="md" style={NUMERIC}>
                      {formatCount(target.unmeasured)}
                    </Badge>
                  ) : (
                    <Text size="sm" c="dimmed">
                      0
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  <ProbabilityBar probability={target.meanProbability} compact testId="selection-prediction-mean" />
                </Table.Td>
                <Table.Td ta="right">
                  <ProbabilityBar probability={target.bestProbability} compact testId="selection-prediction-best" />
                </Table.Td>
                <Table.Td ta="right">
                  <Tooltip label={`A new search: the measured actives of ${target.name}`} withArrow>
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      leftSection={<IconSearch size={12} />}
                      loading={actives.running === target.targetId}
                      aria-label={`Search the measured actives of ${target.name}`}
                      onClick={() =>
                        void actives.open({
                          targetId: target.targetId,
                          name: target.name,
                          geneSymbol: target.geneSymbol,
                          thresholdNm: ACTIVE_THRESHOLD_NM[target.family],
                        })
                      }
                    >
                      Actives
                    </Button>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** What a finished (or stopped) run rests on: structures answered, unreadable, outside the domain, without a confident target. */
function RunNotes({ run }: { run: SelectionRun }) {
  const { answered, failed, outside, abstained } = tallyPredictions(run.predictions);
  return (
    <Stack gap={4}>
      {run.selected > PREDICTION_SELECTION_MAX && (
        <Alert variant="light" color="yellow" p="xs" data-testid="selection-prediction-capped">
          <Text size="sm">
            {countNoun(run.selected, 'structure')} are selected: the first {formatCount(PREDICTION_SELECTION_MAX)} (in the tab's order) are
            predicted, at most {formatCount(PREDICTION_SELECTION_MAX)} at a time. Narrow the selection for the others.
          </Text>
        </Alert>
      )}
      {answered > 0 && (
        <Text size="sm" data-testid="selection-prediction-abstained" data-abstained={abstained} data-answered={answered} style={NUMERIC}>
          {abstained === 0 ? (
            `${answered === 1 ? 'The compound has' : `All ${countNoun(answered, 'compound')} have`} a target predicted with confidence`
          ) : (
            <>
              {formatCount(abstained)} of {countNoun(answered, 'compound')}: no target predicted with confidence
              <Text span size="xs" c="dimmed">
                {' '}
                (none reaches {formatProbability(PREDICTION_CONFIDENT_PROBABILITY)}; they count in no target below)
              </Text>
            </>
          )}
        </Text>
      )}
      {(failed > 0 || outside > 0) && (
        <Text size="xs" c="dimmed">
          {failed > 0 && `${countNoun(failed, 'structure')} could not be predicted. `}
          {outside > 0 &&
            `${countNoun(outside, 'structure')} ${outside === 1 ? 'is' : 'are'} unlike the measured data (their predictions are weak).`}
        </Text>
      )}
      {run.model && run.model.state !== 'installed' && (
        <Text size="xs" c="dimmed" data-testid="prediction-model-note" data-state={run.model.state}>
          Similarity ensemble only: {run.model.message ?? 'no multitask model is installed.'}
        </Text>
      )}
    </Stack>
  );
}

/** A selection tool of the results toolbar (the results page hands it in: pages/results-page.tsx). */
export type SelectionPredictionProps = SelectionToolProps;

/**
 * "Predict targets for selection" on the Structures tab: the ticked structures' predicted targets
 * summed per target — how many compounds each target is predicted for, how many of those were
 * measured on it, and the unmeasured rest (the off-target hypotheses).
 */
export function SelectionPrediction({ tab, sessionId, state, count, rowCount }: SelectionPredictionProps) {
  const [opened, setOpened] = useState(false);
  const { run, aggregated, start, cancel, reset } = useSelectionPrediction();
  if (tab !== 'structuretab') return null;

  const open = () => {
    setOpened(true);
    void start({ sessionId, state, rowCount });
  };
  const close = () => {
    reset();
    setOpened(false);
  };
  const answered = run.predictions.filter((p) => p.error === null).length;
  const showTable =
    run.status === 'done' || run.status === 'cancelled' || run.status === 'failed' || (run.status === 'running' && run.done > 0);
  const overCap = count > PREDICTION_SELECTION_MAX;
  return (
    <>
      <Tooltip
        label={
          count === 0
            ? 'Tick structures to predict their targets'
            : overCap
              ? `The first ${formatCount(PREDICTION_SELECTION_MAX)} of the ${countNoun(count, 'selected structure')} are predicted`
              : `Which targets the ${countNoun(count, 'ticked structure')} probably hit`
        }
        withArrow
      >
        <Button
          size="xs"
          variant="default"
          leftSection={<IconTargetArrow size={14} />}
          disabled={count === 0}
          onClick={open}
          data-testid="predict-selection"
        >
          Predict targets for selection
        </Button>
      </Tooltip>
      <Drawer
        opened={opened}
        onClose={close}
        position="right"
        size="min(1100px, 96vw)"
        title={`Predicted targets of ${countNoun(Math.min(count, PREDICTION_SELECTION_MAX), 'selected structure')}`}
        data-testid="selection-prediction"
      >
        <Stack gap="sm">
          <PredictionDisclaimer />
          <RunProgress run={run} onCancel={cancel} />
          {run.status === 'failed' && (
            <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} />} title="The prediction stopped">
              <Text size="sm" mb="xs">
                {run.error}
              </Text>
              <Button size="xs" variant="light" color="red" onClick={() => void start({ sessionId, state, rowCount })}>
                Try again
              </Button>
            </Alert>
          )}
          <RunNotes run={run} />
          {showTable &&
            (aggregated.length === 0 ? (
              run.status === 'done' ? (
                <EmptyState>No target is predicted with confidence for these structures.</EmptyState>
              ) : null
            ) : (
              <>
                <Text size="xs" c="dimmed">
                  Each compound's targets predicted with a probability of at least {formatProbability(PREDICTION_CONFIDENT_PROBABILITY)}{' '}
                  (its {formatCount(SELECTION_TARGET_LIMIT)} most probable at most), summed over {countNoun(answered, 'compound')}; the
                  probabilities are the mean and the best over the compounds predicting the target. "Unmeasured" counts compounds predicted
                  for a target they were never measured on — hypotheses to test.
                </Text>
                <AggregateTable targets={aggregated} compounds={answered} />
              </>
            ))}
        </Stack>
      </Drawer>
    </>
  );
}
