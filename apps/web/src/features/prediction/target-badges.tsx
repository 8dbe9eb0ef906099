import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
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

/**
 * The caution on a target whose data is thin ("rests on 1 paper"): its probability comes from one
 * laboratory's chemotype and assay, or from a handful of actives.
 */
export function ThinDataBadge({ caution }: { caution: string }) {
  return (
    <Tooltip
      label={`This target ${caution}: one laboratory’s assay and chemotype decide its prediction. Read it with caution.`}
      withArrow
      multiline
      w={280}
    >
      <Badge
        size="sm"
        variant="light"
        color="yellow"
        tt="none"
        leftSection={<IconAlertTriangle size={12} aria-hidden />}
        styles={{ root: { height: 'auto', maxWidth: 'none', paddingBlock: 2 }, label: { whiteSpace: 'normal', lineHeight: 1.3 } }}
        w="fit-content"
        data-testid="prediction-thin-data-badge"
      >
        {caution}
      </Badge>
    </Tooltip>
  );
}
