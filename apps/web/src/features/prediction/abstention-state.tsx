import { Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBulb, IconQuestionMark } from '@tabler/icons-react';
import type { PredictTargetsResponse } from '@kb/contracts/prediction';
import { countNoun } from '../../app/format/plural.ts';
import { NearestCompoundCards } from './evidence-cards.tsx';
import { ABSTENTION_TITLE, abstentionDetail, formatProbability } from './prediction-format.ts';

/**
 * "No target predicted with confidence": in place of a ranked list when no target reaches the
 * threshold. A list of weak targets would read as predictions; what the data does say is shown
 * instead — the nearest measured compounds and what they are active on — and the weaker
 * candidates are there on request, marked as hypotheses.
 */
export function AbstentionState({
  abstention,
  belowThreshold,
  threshold,
  onShowWeaker,
}: {
  abstention: NonNullable<PredictTargetsResponse['abstention']>;
  /** Candidates below the threshold; 0 when there are none (or they are already shown). */
  belowThreshold: number;
  threshold: number;
  onShowWeaker: () => void;
}) {
  return (
    <Paper withBorder radius="md" p="md" data-testid="prediction-abstention" role="status" aria-labelledby="prediction-abstention-title">
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" color="gray" size="lg" radius="xl" aria-hidden>
            <IconQuestionMark size={20} />
          </ThemeIcon>
          <Stack gap={4} style={{ flex: 1 }}>
            <Title order={3} size="h4" id="prediction-abstention-title">
              {ABSTENTION_TITLE}
            </Title>
            <Text size="sm" data-testid="prediction-abstention-message">
              {abstentionDetail(abstention.message)}
            </Text>
          </Stack>
        </Group>
        {abstention.nearest.length > 0 ? (
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              The {countNoun(abstention.nearest.length, 'nearest measured compound')} and what they are active on
            </Text>
            <NearestCompoundCards nearest={abstention.nearest} />
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" data-testid="prediction-no-nearest">
            No measured compound of the knowledge base is near enough to show.
          </Text>
        )}
        {belowThreshold > 0 ? (
          <Group gap="sm">
            <Button variant="light" leftSection={<IconBulb size={16} />} onClick={onShowWeaker} data-testid="prediction-show-weaker">
              Show weaker hypotheses
            </Button>
            <Text size="xs" c="dimmed">
              {countNoun(belowThreshold, 'candidate')} below {formatProbability(threshold)}, to read as hypotheses only
            </Text>
          </Group>
        ) : (
          <Text size="xs" c="dimmed" data-testid="prediction-no-weaker">
            There is no weaker candidate either: no measured active is similar enough and the model lifts no target.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
