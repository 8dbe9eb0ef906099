import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconChevronRight, IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { Fragment, useCallback, useState } from 'react';
import type { ReactNode } from 'react';
import { PREDICTION_CONFIDENT_PROBABILITY, PREDICTION_DISCLAIMER } from '@kb/contracts/prediction';
import type { CalibrationInfo, ModelStatus, PredictTargetsResponse, PredictedTarget } from '@kb/contracts/prediction';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { EmptyState, QueryErrorAlert } from '../../app/ui/query-view.tsx';
import { StructureImage } from '../chemistry/structure-image.tsx';
import { ExternalLink, SortableTh } from '../../app/ui/leaflet-ui.tsx';
import { useSortedRows } from '../../app/ui/use-sorted-rows.ts';
import type { SortValue } from '../../app/ui/use-sorted-rows.ts';
import { AbstentionState } from './abstention-state.tsx';
import { EvidenceCards } from './evidence-cards.tsx';
import { ModelOnlyTargets } from './model-only-targets.tsx';
import { MeasuredCell, MultitaskCell, ProbabilityBar, SimilarityCell, TargetCell } from './prediction-cells.tsx';
import {
  E_VALUE_READING,
  NUMERIC,
  chemblTargetUrl,
  formatEValue,
  formatProbability,
  formatScore,
  thinDataCaution,
  thresholdText,
} from './prediction-format.ts';
import { usePredictedTargets, useSearchTargetActives } from './use-prediction.ts';
import type { PredictionStructure } from './use-prediction.ts';

type Column = 'probability' | 'target' | 'similarity' | 'multitask';

function sortValue(target: PredictedTarget, column: Column): SortValue {
  switch (column) {
    case 'probability':
      return target.probability;
    case 'target':
      return target.name;
    case 'similarity':
      return target.ranks.similarity;
    case 'multitask':
      return target.ranks.multitask;
  }
}

/** A column's first sort: probabilities highest first; names A–Z; the predictors' ranks best first. */
const FIRST_DIRECTION: Record<Column, 'asc' | 'desc'> = { probability: 'desc', target: 'asc', similarity: 'asc', multitask: 'asc' };

/** Says predictions are hypotheses: always on screen with them. */
export function PredictionDisclaimer() {
  return (
    <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} p="xs" data-testid="prediction-disclaimer">
      <Text size="sm">{PREDICTION_DISCLAIMER}</Text>
    </Alert>
  );
}

/** What the multitask model adds, or why it adds nothing (not installed, failed): the ensemble predicts either way. */
function ModelNote({ model }: { model: ModelStatus }) {
  if (model.state === 'installed') {
    return (
      <Text size="xs" c="dimmed" data-testid="prediction-model-note" data-state={model.state}>
        Multitask model: {model.name ?? 'installed'} ({countNoun(model.targets, 'target')}).
      </Text>
    );
  }
  return (
    <Alert
      variant="light"
      color={model.state === 'failed' ? 'orange' : 'blue'}
      p="xs"
      data-testid="prediction-model-note"
      data-state={model.state}
      title={model.state === 'failed' ? 'The multitask model could not be used' : 'No multitask model installed'}
    >
      <Text size="xs">{model.message ?? 'The similarity ensemble predicts from the measured data alone.'}</Text>
    </Alert>
  );
}

/** One block of a target's detail: a heading, its figures and how to read them. */
function DetailBlock({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="sm" p="xs" bg="white" data-testid={testId}>
      <Stack gap={4}>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed">
          {title}
        </Text>
        {children}
      </Stack>
    </Paper>
  );
}

/** A figure of the detail: "E-value 3e-12". */
function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Text size="sm" style={NUMERIC}>
      {label}{' '}
      <Text span fw={600} data-testid={testId}>
        {value}
      </Text>
    </Text>
  );
}

/**
 * Why a target is predicted, predictor by predictor, and what its data rests on: the ensemble's
 * E-value and own probability, the model's raw output, lift and own probability, the target's own
 * applicability domain (its nearest active, actives, papers) with a caution when that is thin.
 */
function TargetDetail({ target, answer }: { target: PredictedTarget; answer: PredictTargetsResponse }) {
  const { similarity, multitask, domain } = target;
  const caution = thinDataCaution(domain);
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs" data-testid="prediction-target-why">
      <DetailBlock title="Similarity ensemble" testId="prediction-detail-ensemble">
        {similarity ? (
          <>
            <Figure
              label="E-value"
              value={similarity.hits > 0 && similarity.eValue !== null ? formatEValue(similarity.eValue) : 'none'}
              testId="prediction-detail-evalue"
            />
            <Figure label="Its own probability" value={formatProbability(similarity.probability)} />
            <Text size="xs" c="dimmed" style={NUMERIC}>
              {formatCount(similarity.hits)} of its {countNoun(similarity.actives, 'active')} at Tc ≥{' '}
              {formatScore(answer.ensemble.threshold)}
            </Text>
            <Text size="xs" c="dimmed">
              {E_VALUE_READING}
            </Text>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            No active of this target at Tc ≥ {formatScore(answer.ensemble.threshold)}: the ensemble has no evidence for it.
          </Text>
        )}
      </DetailBlock>
      <DetailBlock title="Multitask model" testId="prediction-detail-model">
        {multitask ? (
          <>
            <Figure label="Its own probability" value={formatProbability(multitask.probability)} />
            <Figure label="Raw output" value={formatScore(multitask.rawProbability)} testId="prediction-detail-raw" />
            <Figure label="Lift" value={`z ${multitask.zScore.toFixed(1)} · E ${formatEValue(multitask.eValue)}`} />
            <Text size="xs" c="dimmed">
              Raw outputs do not compare across targets (each target's output has its own base rate); the lift over this knowledge base's
              own compounds, and the probability calibrated from it, do.
            </Text>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {answer.model.state === 'installed' ? 'Not one of the model’s targets.' : 'No model installed: the ensemble alone predicts.'}
          </Text>
        )}
      </DetailBlock>
      <DetailBlock title="This target’s data" testId="prediction-detail-domain">
        <Figure
          label="Nearest active"
          value={
            domain.nearestSimilarity === null
              ? `below Tc ${formatScore(answer.domain.scanMin)}`
              : `Tc ${formatScore(domain.nearestSimilarity)}`
          }
        />
        <Text size="sm" style={NUMERIC}>
          {countNoun(domain.actives, 'active')} from {countNoun(domain.documents, 'paper')}
        </Text>
        {caution ? (
          <Alert variant="light" color="yellow" p={6} icon={<IconAlertTriangle size={16} />} data-testid="prediction-thin-data">
            <Text size="xs">This prediction {caution}: one laboratory’s assay and chemotype decide it. Read it with caution.</Text>
          </Alert>
        ) : (
          <Text size="xs" c="dimmed">
            The nearer the nearest active and the more papers behind the target, the more its probability can be trusted.
          </Text>
        )}
      </DetailBlock>
    </SimpleGrid>
  );
}

/** The actions of a target: its measured actives as a new search, and its ChEMBL page. */
function TargetLinks({ target, onSearch, searching }: { target: PredictedTarget; onSearch: () => void; searching: boolean }) {
  return (
    <Group gap="xs">
      <Button
        size="compact-xs"
        variant="light"
        leftSection={<IconSearch size={12} />}
        onClick={onSearch}
        loading={searching}
        data-testid="prediction-search-actives"
      >
        Search its measured actives ({thresholdText(target.thresholdNm)})
      </Button>
      {target.chemblId && <ExternalLink href={chemblTargetUrl(target.chemblId)}>{target.chemblId} in ChEMBL</ExternalLink>}
    </Group>
  );
}

const keyOf = (target: PredictedTarget) => String(target.targetId);

function PredictionTable({ answer, threshold }: { answer: PredictTargetsResponse; threshold: number }) {
  const value = useCallback((target: PredictedTarget, column: Column) => sortValue(target, column), []);
  const { sorted, sort, toggle } = useSortedRows<PredictedTarget, Column>(answer.targets, value, {
    column: 'probability',
    direction: 'desc',
  });
  // The best target with measured evidence opens with it: the first thing a chemist wants to see is why.
  const first = answer.targets.find((target) => target.evidence.length > 0) ?? answer.targets[0];
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(first ? [keyOf(first)] : []));
  const actives = useSearchTargetActives();
  const toggleRow = (key: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const th = (column: Column, label: string) => (
    <SortableTh
      label={label}
      active={sort.column === column}
      direction={sort.direction}
      onSort={() => toggle(column, FIRST_DIRECTION[column])}
    />
  );
  return (
    <Table.ScrollContainer minWidth={700}>
      {actives.confirmDialog}
      <Table verticalSpacing={6} data-testid="prediction-table" aria-label="Predicted targets, most probable first">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={36}>
              <VisuallyHidden>Evidence</VisuallyHidden>
            </Table.Th>
            {th('probability', 'Probability')}
            {th('target', 'Target')}
            {th('similarity', 'Similarity ensemble')}
            {th('multitask', 'Multitask model')}
            <Table.Th>Measured</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.map((target) => {
            const key = keyOf(target);
            const open = expanded.has(key);
            const detailId = `prediction-evidence-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
            return (
              <Fragment key={key}>
                <Table.Tr
                  data-testid="prediction-target"
                  data-target-id={target.targetId}
                  data-rank={answer.targets.indexOf(target) + 1}
                  data-probability={target.probability}
                  bg={open ? 'var(--mantine-color-gray-0)' : undefined}
                >
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      onClick={() => toggleRow(key)}
                      aria-expanded={open}
                      aria-controls={detailId}
                      aria-label={`${open ? 'Hide' : 'Show'} the evidence for ${target.name}`}
                      data-testid="prediction-expand"
                    >
                      {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                    </ActionIcon>
                  </Table.Td>
                  <Table.Td>
                    <ProbabilityBar probability={target.probability} threshold={threshold} testId="prediction-probability" />
                  </Table.Td>
                  <Table.Td>
                    <TargetCell target={target} />
                  </Table.Td>
                  <Table.Td>
                    <SimilarityCell similarity={target.similarity} threshold={answer.ensemble.threshold} />
                  </Table.Td>
                  <Table.Td>
                    <MultitaskCell multitask={target.multitask} model={answer.model} />
                  </Table.Td>
                  <Table.Td>
                    <MeasuredCell measured={target.measured} thresholdNm={target.thresholdNm} />
                  </Table.Td>
                </Table.Tr>
                {open && (
                  <Table.Tr id={detailId} data-testid="prediction-target-detail" bg="var(--mantine-color-gray-0)">
                    <Table.Td />
                    <Table.Td colSpan={5} pb="md">
                      <Stack gap="xs">
                        <TargetDetail target={target} answer={answer} />
                        <Group justify="space-between" gap="xs">
                          <Text size="xs" c="dimmed">
                            {target.evidence.length > 0
                              ? `The ${countNoun(target.evidence.length, 'nearest measured active')} of ${target.name}`
                              : 'Evidence'}
                          </Text>
                          <TargetLinks
                            target={target}
                            searching={actives.running === target.targetId}
                            onSearch={() =>
                              void actives.open({
                                targetId: target.targetId,
                                name: target.name,
                                geneSymbol: target.geneSymbol,
                                thresholdNm: target.thresholdNm,
                              })
                            }
                          />
                        </Group>
                        <EvidenceCards evidence={target.evidence} targetName={target.name} />
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** How the probabilities were calibrated, in a sentence: what a listed probability means. */
function CalibrationNote({ calibration }: { calibration: CalibrationInfo }) {
  const fit =
    calibration.source === 'knowledge base'
      ? `Fitted on ${countNoun(calibration.queries, 'compound')} of this knowledge base (${countNoun(calibration.pairs, 'compound–target pair')}, ${countNoun(calibration.positives, 'active')})${calibration.brier !== null ? `; Brier score ${calibration.brier.toFixed(3)} on held-out pairs (lower is better)` : ''}.`
      : 'This knowledge base has too few measured compounds for a fit of its own: the coefficients fitted on a ChEMBL subset are used.';
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" data-testid="prediction-calibration" data-source={calibration.source}>
      <Text size="sm">
        Probability that the compound is active on the target (at or below the family’s threshold), calibrated on{' '}
        {calibration.source === 'knowledge base'
          ? 'this knowledge base’s compounds with their own papers held out.'
          : 'a ChEMBL subset’s compounds with their own papers held out (this knowledge base has too few of its own).'}
      </Text>
      <Tooltip label={fit} withArrow multiline w={320}>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`How the probabilities were calibrated: ${fit}`}>
          <IconInfoCircle size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** "3 weaker candidates below 20 % not shown — Show": the targets the threshold left out, on request. */
function BelowThresholdLine({ count, threshold, onShow }: { count: number; threshold: number; onShow: () => void }) {
  return (
    <Text size="xs" c="dimmed" data-testid="prediction-below-threshold" data-count={count}>
      {countNoun(count, 'weaker candidate')} below {formatProbability(threshold)} not shown —{' '}
      <Anchor component="button" type="button" size="xs" onClick={onShow} data-testid="prediction-show-weaker">
        Show
      </Anchor>
    </Text>
  );
}

/**
 * Shown while the weaker candidates are listed: they are hypotheses, not predictions with confidence.
 * It takes the focus when it appears: the button that asked for it is gone, and a keyboard or screen
 * reader user lands on what the list now is.
 */
function HypothesesBanner({ threshold, onBack }: { threshold: number; onBack: () => void }) {
  const focus = useCallback((element: HTMLDivElement | null) => element?.focus(), []);
  return (
    <Alert
      ref={focus}
      tabIndex={-1}
      variant="light"
      color="yellow"
      icon={<IconAlertTriangle size={18} />}
      title="Below the confidence threshold: hypotheses only"
      data-testid="prediction-hypotheses-banner"
    >
      <Group justify="space-between" gap="xs">
        <Text size="sm">
          Every candidate is listed, including those below {formatProbability(threshold)} (grey bars): each is a weak hypothesis, not a
          prediction.
        </Text>
        <Button size="compact-xs" variant="default" onClick={onBack} data-testid="prediction-confident-only">
          Show confident predictions only
        </Button>
      </Group>
    </Alert>
  );
}

/** A line on what the answer rests on: the query's nearest active, the ensemble's data, the time. */
function AnswerSummary({ answer }: { answer: PredictTargetsResponse }) {
  const { domain, ensemble } = answer;
  const nearest =
    domain.nearestSimilarity !== null
      ? `nearest measured active Tc ${formatScore(domain.nearestSimilarity)}`
      : `no measured active with Tc ≥ ${formatScore(domain.scanMin)}`;
  return (
    <Text size="xs" c="dimmed" data-testid="prediction-summary">
      {countNoun(answer.targets.length, 'target')} listed · {nearest} · ensemble over {countNoun(ensemble.actives, 'active')} of{' '}
      {countNoun(ensemble.targets, 'target')} (hits at Tc ≥ {formatScore(ensemble.threshold)}) · {formatCount(Math.round(answer.elapsedMs))}{' '}
      ms
    </Text>
  );
}

/**
 * The prediction for one structure: disclaimer, domain warning, model note, then the targets with
 * their probabilities and evidence — or, when none reaches the threshold, "no target predicted with
 * confidence" with the nearest measured compounds — and the model's targets with no data here.
 */
export function PredictionAnswer({
  answer,
  showQuery,
  weaker,
  onWeaker,
}: {
  answer: PredictTargetsResponse;
  showQuery: boolean;
  /** The weaker candidates were asked for (every candidate, `minProbability` 0). */
  weaker: boolean;
  onWeaker: (weaker: boolean) => void;
}) {
  // Asked for every candidate, the answer's threshold is 0: the confident one is still the product's.
  const threshold = weaker ? PREDICTION_CONFIDENT_PROBABILITY : answer.calibration.threshold;
  const abstained = answer.targets.length === 0 || (answer.abstention !== null && !weaker);
  return (
    <Stack
      gap="sm"
      data-testid="prediction-answer"
      data-in-domain={answer.domain.inDomain}
      data-abstained={abstained}
      data-hypotheses={weaker}
    >
      <PredictionDisclaimer />
      {!answer.domain.inDomain && (
        <Alert
          variant="light"
          color="orange"
          icon={<IconAlertTriangle size={18} />}
          title="Unlike the measured data"
          role="alert"
          data-testid="prediction-domain-warning"
        >
          <Text size="sm">
            {answer.domain.message ??
              'No measured active of the knowledge base is similar to this structure: treat every prediction with caution.'}
          </Text>
        </Alert>
      )}
      {answer.model.state !== 'installed' ? <ModelNote model={answer.model} /> : null}
      <Group gap="md" align="flex-start" wrap="nowrap">
        {showQuery && <StructureImage smiles={answer.query.smiles} width={180} height={120} alt="the query structure" />}
        <Stack gap={4} style={{ flex: 1 }}>
          <AnswerSummary answer={answer} />
          {answer.model.state === 'installed' && <ModelNote model={answer.model} />}
          {answer.measuredElsewhere > 0 && (
            <Text size="xs" c="dimmed">
              This compound is also measured on {countNoun(answer.measuredElsewhere, 'target')} not listed here.
            </Text>
          )}
        </Stack>
      </Group>
      {weaker && answer.targets.length > 0 && <HypothesesBanner threshold={threshold} onBack={() => onWeaker(false)} />}
      {abstained ? (
        answer.abstention ? (
          <AbstentionState
            abstention={answer.abstention}
            belowThreshold={weaker ? 0 : answer.belowThreshold}
            threshold={threshold}
            onShowWeaker={() => onWeaker(true)}
          />
        ) : (
          <EmptyState>No target is predicted: no measured active is similar enough and the model lifts no target.</EmptyState>
        )
      ) : (
        <Stack gap="xs">
          <CalibrationNote calibration={answer.calibration} />
          <PredictionTable key={weaker ? 'all' : 'confident'} answer={answer} threshold={threshold} />
          {!weaker && answer.belowThreshold > 0 && (
            <BelowThresholdLine count={answer.belowThreshold} threshold={threshold} onShow={() => onWeaker(true)} />
          )}
        </Stack>
      )}
      {answer.model.state === 'installed' && answer.modelOnly.length > 0 && <ModelOnlyTargets answer={answer} />}
    </Stack>
  );
}

function PredictionLoading({ weaker }: { weaker: boolean }) {
  return (
    <Stack gap={6} aria-busy="true" aria-label="Predicting targets" data-testid="prediction-loading">
      <Text size="sm" c="dimmed">
        {weaker ? 'Listing every candidate, the weaker ones too…' : 'Comparing with the measured actives…'}
      </Text>
      {Array.from({ length: 5 }, (_, index) => (
        <Skeleton key={index} height={36} radius="sm" />
      ))}
    </Stack>
  );
}

/** The "Predicted targets" panel for a structure: asks the server and shows the answer with its loading and error states. */
export function PredictedTargetsPanel({ structure, showQuery = false }: { structure: PredictionStructure; showQuery?: boolean }) {
  // The confident targets first; the weaker candidates (every one, minProbability 0) only when asked for.
  const [weaker, setWeaker] = useState(false);
  const query = usePredictedTargets(structure, true, weaker ? 0 : PREDICTION_CONFIDENT_PROBABILITY);
  return (
    <Stack gap="sm" data-testid="predicted-targets">
      {query.isPending ? (
        <>
          <PredictionDisclaimer />
          <PredictionLoading weaker={weaker} />
        </>
      ) : query.isError ? (
        <QueryErrorAlert title="The targets could not be predicted" error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <PredictionAnswer answer={query.data} showQuery={showQuery} weaker={weaker} onWeaker={setWeaker} />
      )}
    </Stack>
  );
}
