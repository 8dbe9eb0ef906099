import { ActionIcon, Alert, Badge, Button, Group, Progress, Skeleton, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconChevronRight, IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { Fragment, useCallback, useState } from 'react';
import { PREDICTION_DISCLAIMER } from '@kb/contracts/prediction';
import type { ModelStatus, PredictTargetsResponse, PredictedTarget } from '@kb/contracts/prediction';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { EmptyState, QueryErrorAlert } from '../../app/ui/query-view.tsx';
import { StructureImage } from '../chemistry/structure-image.tsx';
import { ExternalLink, SortableTh } from '../../app/ui/leaflet-ui.tsx';
import { useSortedRows } from '../../app/ui/use-sorted-rows.ts';
import type { SortValue } from '../../app/ui/use-sorted-rows.ts';
import { EvidenceCards } from './evidence-cards.tsx';
import { TargetBadges } from './target-badges.tsx';
import { NUMERIC, chemblTargetUrl, formatEValue, formatPotencyOf, formatScore, measuredText, thresholdText } from './prediction-format.ts';
import { usePredictedTargets, useSearchTargetActives } from './use-prediction.ts';
import type { PredictionStructure } from './use-prediction.ts';

type Column = 'combined' | 'target' | 'similarity' | 'multitask';

function sortValue(target: PredictedTarget, column: Column): SortValue {
  switch (column) {
    case 'combined':
      return target.ranks.combined;
    case 'target':
      return target.name;
    case 'similarity':
      return target.ranks.similarity;
    case 'multitask':
      return target.ranks.multitask;
  }
}

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

function TargetCell({ target }: { target: PredictedTarget }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500} lh={1.3}>
        {target.name}
      </Text>
      <TargetBadges geneSymbol={target.geneSymbol} family={target.family} organism={target.organism} />
    </Stack>
  );
}

function SimilarityCell({ similarity, threshold }: { similarity: PredictedTarget['similarity']; threshold: number }) {
  if (!similarity) {
    return (
      <Text size="xs" c="dimmed">
        no similar active
      </Text>
    );
  }
  // Without a hit at the ensemble's threshold there is no E-value to read, only the nearest active.
  const scored = similarity.hits > 0 && Number.isFinite(similarity.eValue);
  return (
    <Stack gap={0} style={NUMERIC}>
      {scored ? (
        <Tooltip label="E-value: how many targets would score this well by chance (lower is stronger)" withArrow>
          <Text size="sm" fw={600} data-testid="prediction-evalue" w="fit-content">
            E {formatEValue(similarity.eValue)}
          </Text>
        </Tooltip>
      ) : (
        <Text size="xs" c="dimmed">
          no active at Tc ≥ {formatScore(threshold)}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        max Tc {formatScore(similarity.maxSimilarity)} · {formatCount(similarity.hits)}/{formatCount(similarity.actives)} actives
      </Text>
    </Stack>
  );
}

function MultitaskCell({ multitask, model }: { multitask: PredictedTarget['multitask']; model: ModelStatus }) {
  if (multitask) {
    return (
      <Stack gap={2} style={NUMERIC}>
        <Text size="sm" fw={600}>
          {formatScore(multitask.probability)}
        </Text>
        <Progress value={multitask.probability * 100} size="xs" color="grape" aria-hidden />
        <Tooltip
          label="The probability's lift over the knowledge base's own structures (z), and how many targets would be lifted this far by chance (E)"
          withArrow
          multiline
          w={280}
        >
          <Text size="xs" c="dimmed" w="fit-content">
            z {multitask.zScore.toFixed(1)} · E {formatEValue(multitask.eValue)}
          </Text>
        </Tooltip>
      </Stack>
    );
  }
  return (
    <Text size="xs" c="dimmed">
      —{model.state === 'installed' ? ' not a model target' : ''}
    </Text>
  );
}

function ScoreCell({ score }: { score: number }) {
  return (
    <Stack gap={2} style={NUMERIC} miw={64}>
      <Text size="sm" fw={700}>
        {formatScore(score)}
      </Text>
      <Progress value={score * 100} size="xs" aria-hidden />
    </Stack>
  );
}

function MeasuredCell({ measured, thresholdNm }: { measured: PredictedTarget['measured']; thresholdNm: number }) {
  if (!measured) return null;
  return (
    <Tooltip
      label={`Measured for this compound on the target: ${countNoun(measured.count, { one: 'potency', other: 'potencies' })}, the best ${formatPotencyOf(measured.activityType, measured.bestNm)}; active means ${thresholdText(thresholdNm)}`}
      withArrow
      multiline
      w={260}
    >
      <Badge
        size="sm"
        variant={measured.active ? 'filled' : 'light'}
        color={measured.active ? 'green' : 'gray'}
        tt="none"
        // The whole value must show: a badge cut to "(act…" hides whether it is active.
        styles={{
          root: { height: 'auto', maxWidth: 'none', paddingBlock: 2 },
          label: { whiteSpace: 'normal', overflow: 'visible', lineHeight: 1.3 },
        }}
        data-testid="prediction-measured"
      >
        {measuredText(measured)}
      </Badge>
    </Tooltip>
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

function PredictionTable({ answer }: { answer: PredictTargetsResponse }) {
  const value = useCallback((target: PredictedTarget, column: Column) => sortValue(target, column), []);
  const { sorted, sort, toggle } = useSortedRows<PredictedTarget, Column>(answer.targets, value, { column: 'combined', direction: 'asc' });
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
  const th = (column: Column, label: string, align: 'left' | 'right' = 'left') => (
    <SortableTh
      label={label}
      align={align}
      active={sort.column === column}
      direction={sort.direction}
      onSort={() => toggle(column, 'asc')}
    />
  );
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={820}>
        {actives.confirmDialog}
        <Table verticalSpacing={6} data-testid="prediction-table" aria-label="Predicted targets, best first">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={36}>
                <VisuallyHidden>Evidence</VisuallyHidden>
              </Table.Th>
              {th('combined', 'Combined')}
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
                    data-target-id={target.targetId ?? ''}
                    data-rank={target.ranks.combined}
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
                    <Table.Td style={NUMERIC}>
                      <Group gap={8} wrap="nowrap">
                        <Text size="xs" c="dimmed" w={22} ta="right">
                          #{target.ranks.combined}
                        </Text>
                        <ScoreCell score={target.score} />
                      </Group>
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
                    <Table.Tr id={detailId} data-testid="prediction-target-detail">
                      <Table.Td />
                      <Table.Td colSpan={5} pb="md">
                        <Stack gap="xs">
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
    </Stack>
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
      {countNoun(answer.targets.length, 'target')} · {nearest} · ensemble over {countNoun(ensemble.actives, 'active')} of{' '}
      {countNoun(ensemble.targets, 'target')} (hits at Tc ≥ {formatScore(ensemble.threshold)}) · {formatCount(Math.round(answer.elapsedMs))}{' '}
      ms
    </Text>
  );
}

/** The prediction for one structure: disclaimer, domain warning, model note and the targets with their evidence. */
function PredictionAnswer({ answer, showQuery = false }: { answer: PredictTargetsResponse; showQuery?: boolean }) {
  return (
    <Stack gap="sm" data-testid="prediction-answer" data-in-domain={answer.domain.inDomain}>
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
          {answer.modelOnlyInTop10 > 0 && (
            <Text size="xs" c="dimmed">
              The model also ranks {countNoun(answer.modelOnlyInTop10, 'target')} this knowledge base holds no active of among its 10 best;
              they are not listed (no name, evidence or search here).
            </Text>
          )}
        </Stack>
      </Group>
      {answer.targets.length === 0 ? (
        <EmptyState>
          No target is predicted: no measured active is similar enough
          {answer.model.state === 'installed' ? ' and the model gives no target a probability worth listing' : ''}.
        </EmptyState>
      ) : (
        <PredictionTable answer={answer} />
      )}
    </Stack>
  );
}

function PredictionLoading() {
  return (
    <Stack gap={6} aria-busy="true" aria-label="Predicting targets" data-testid="prediction-loading">
      <Text size="sm" c="dimmed">
        Comparing with the measured actives…
      </Text>
      {Array.from({ length: 5 }, (_, index) => (
        <Skeleton key={index} height={36} radius="sm" />
      ))}
    </Stack>
  );
}

/** The "Predicted targets" panel for a structure: asks the server and shows the answer with its loading and error states. */
export function PredictedTargetsPanel({ structure, showQuery = false }: { structure: PredictionStructure; showQuery?: boolean }) {
  const query = usePredictedTargets(structure);
  return (
    <Stack gap="sm" data-testid="predicted-targets">
      {query.isPending ? (
        <>
          <PredictionDisclaimer />
          <PredictionLoading />
        </>
      ) : query.isError ? (
        <QueryErrorAlert title="The targets could not be predicted" error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <PredictionAnswer answer={query.data} showQuery={showQuery} />
      )}
    </Stack>
  );
}
