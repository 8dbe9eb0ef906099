import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { Link } from 'react-router';
import { referenceLeafletLink, structureLeafletLink } from '@kb/contracts/leaflets';
import type { EvidenceCompound } from '@kb/contracts/prediction';
import { StructureImage } from '../chemistry/structure-image.tsx';
import { evidencePotency, formatScore } from './prediction-format.ts';

const DRAWING = { width: 200, height: 140 };

/** One nearest measured active: its drawing, similarity to the query, best potency, reference and leaflet. */
function EvidenceCard({ compound, targetName }: { compound: EvidenceCompound; targetName: string }) {
  const potency = evidencePotency(compound);
  return (
    <Paper
      withBorder
      radius="sm"
      p={6}
      data-testid="prediction-evidence"
      data-str-id={compound.strId}
      aria-label={`Structure ${compound.strId}: Tanimoto ${formatScore(compound.similarity)}, ${potency}`}
      component="article"
    >
      <Stack gap={4}>
        <Anchor
          component={Link}
          to={structureLeafletLink(compound.strId)}
          aria-label={`Open the leaflet of structure ${compound.strId}`}
          display="block"
        >
          <StructureImage
            strId={compound.strId}
            width={DRAWING.width}
            height={DRAWING.height}
            alt={`structure ${compound.strId}, an active of ${targetName}`}
          />
        </Anchor>
        <Group gap={6} justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={structureLeafletLink(compound.strId)} size="xs" fw={600} data-testid="prediction-evidence-leaflet">
            #{compound.strId}
          </Anchor>
          <Tooltip label="Tanimoto similarity to the query (Morgan radius 2)" withArrow>
            <Badge size="sm" variant="light" color="indigo" tt="none" style={{ fontVariantNumeric: 'tabular-nums' }}>
              Tc {formatScore(compound.similarity)}
            </Badge>
          </Tooltip>
        </Group>
        <Text size="xs" fw={500} style={{ fontVariantNumeric: 'tabular-nums' }}>
          {potency}
        </Text>
        {compound.refId !== null ? (
          <Anchor
            component={Link}
            to={referenceLeafletLink(compound.refId)}
            size="xs"
            lineClamp={2}
            title={compound.reference ?? undefined}
          >
            {compound.reference ?? `Reference ${compound.refId}`}
          </Anchor>
        ) : (
          <Text size="xs" c="dimmed" lineClamp={2}>
            {compound.reference ?? 'No reference'}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** The nearest measured actives of a predicted target: why it is predicted. */
export function EvidenceCards({ evidence, targetName }: { evidence: EvidenceCompound[]; targetName: string }) {
  if (evidence.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="prediction-no-evidence">
        No measured active of this target is similar to the query: only the multitask model predicts it.
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="xs" data-testid="prediction-evidence-list">
      {evidence.map((compound) => (
        <EvidenceCard key={compound.strId} compound={compound} targetName={targetName} />
      ))}
    </SimpleGrid>
  );
}
