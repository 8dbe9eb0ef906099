import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { ACTIVE_THRESHOLD_NM } from '@kb/contracts/prediction';
import type { TargetFamily } from '@kb/contracts/prediction';
import { FAMILY_COLORS, familyLabel, thresholdText } from './prediction-format.ts';

/** A predicted target's gene symbol, family (with what counts as active in it) and organism: the panel and the selection alike. */
export function TargetBadges({
  geneSymbol,
  family,
  organism = null,
}: {
  geneSymbol: string | null;
  family: TargetFamily;
  organism?: string | null;
}) {
  return (
    <Group gap={6}>
      {geneSymbol && (
        <Badge size="xs" variant="light" tt="none">
          {geneSymbol}
        </Badge>
      )}
      <Tooltip
        label={`An active of a ${familyLabel(family).toLowerCase()} target: potency ${thresholdText(ACTIVE_THRESHOLD_NM[family])}`}
        withArrow
      >
        <Badge size="xs" variant="outline" color={FAMILY_COLORS[family]} tt="none">
          {familyLabel(family)}
        </Badge>
      </Tooltip>
      {organism && (
        <Text size="xs" c="dimmed" fs="italic">
          {organism}
        </Text>
      )}
    </Group>
  );
}
