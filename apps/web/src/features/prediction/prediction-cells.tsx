import { Badge, Progress, Stack, Text, Tooltip } from '@mantine/core';
import type { ModelStatus, PredictedTarget } from '@kb/contracts/prediction';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { TargetBadges, ThinDataBadge } from './target-badges.tsx';
import {
  E_VALUE_READING,
  NUMERIC,
  formatEValue,
  formatPotencyOf,
  formatProbability,
  formatScore,
  measuredText,
  thinDataCaution,
  thresholdText,
} from './prediction-format.ts';

/** The cells of the prediction tables: what one figure of a predicted target looks like. */

/** The bar colour of a probability: strong, confident, or below the threshold (a hypothesis only). */
function probabilityColor(probability: number, threshold: number): string {
  if (probability < threshold) return 'gray';
  return probability >= 0.5 ? 'teal' : 'blue';
}

/**
 * A probability as a figure over its bar: the one drawing of a probability in the prediction views
 * (the panel, the model-only section, the selection's aggregate). Below the threshold it reads as
 * a hypothesis; `color` overrides the threshold's colours (the model's own probabilities).
 */
export function ProbabilityBar({
  probability,
  threshold = 0,
  color,
  compact = false,
  testId,
}: {
  probability: number;
  threshold?: number;
  color?: string;
  compact?: boolean;
  testId: string;
}) {
  const below = probability < threshold;
  return (
    <Stack gap={3} style={NUMERIC} w={compact ? 56 : 84} align={compact ? 'flex-end' : undefined}>
      <Text size={compact ? 'sm' : 'md'} fw={compact ? 600 : 700} lh={1.1} c={below ? 'dimmed' : undefined} data-testid={testId}>
        {formatProbability(probability)}
      </Text>
      <Progress
        value={probability * 100}
        size={compact ? 'xs' : 'sm'}
        w={compact ? 56 : undefined}
        color={color ?? probabilityColor(probability, threshold)}
        aria-hidden
      />
      {below && (
        <Text size="xs" c="dimmed" lh={1.2}>
          hypothesis
        </Text>
      )}
    </Stack>
  );
}

export function TargetCell({ target }: { target: PredictedTarget }) {
  const caution = thinDataCaution(target.domain);
  return (
    <Stack gap={3}>
      <Text size="sm" fw={500} lh={1.3}>
        {target.name}
      </Text>
      <TargetBadges geneSymbol={target.geneSymbol} family={target.family} organism={target.organism} />
      {caution && <ThinDataBadge caution={caution} />}
    </Stack>
  );
}

export function SimilarityCell({ similarity, threshold }: { similarity: PredictedTarget['similarity']; threshold: number }) {
  if (!similarity) {
    return (
      <Text size="xs" c="dimmed">
        no similar active
      </Text>
    );
  }
  // Without a hit at the ensemble's threshold there is no E-value to read, only the nearest active.
  const scored = similarity.hits > 0 && similarity.eValue !== null && Number.isFinite(similarity.eValue);
  return (
    <Stack gap={0} style={NUMERIC}>
      {scored ? (
        <Tooltip label={E_VALUE_READING} withArrow multiline w={300}>
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

export function MultitaskCell({ multitask, model }: { multitask: PredictedTarget['multitask']; model: ModelStatus }) {
  if (multitask) {
    return (
      <Stack gap={0} style={NUMERIC}>
        <Tooltip
          label="The model's lift over this knowledge base's own compounds: how many targets would be lifted this far by chance (E), and the z-score"
          withArrow
          multiline
          w={300}
        >
          <Text size="sm" fw={600} w="fit-content" data-testid="prediction-model-evalue">
            E {formatEValue(multitask.eValue)}
          </Text>
        </Tooltip>
        <Text size="xs" c="dimmed">
          z {multitask.zScore.toFixed(1)} · own {formatProbability(multitask.probability)}
        </Text>
      </Stack>
    );
  }
  return (
    <Text size="xs" c="dimmed">
      —{model.state === 'installed' ? ' not a model target' : ''}
    </Text>
  );
}

export function MeasuredCell({ measured, thresholdNm }: { measured: PredictedTarget['measured']; thresholdNm: number }) {
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
