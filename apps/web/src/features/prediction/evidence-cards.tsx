import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { referenceLeafletLink, structureLeafletLink } from '@kb/contracts/leaflets';
import type { EvidenceCompound, NearestCompound } from '@kb/contracts/prediction';
import { formatQuantity } from '../../app/format/number-format.ts';
import { StructureImage } from '../chemistry/structure-image.tsx';
import classes from './evidence-cards.module.css';
import { NUMERIC, evidencePotency, formatNanomolar, formatScore } from './prediction-format.ts';

const DRAWING = { width: 200, height: 140 };

/**
 * A measured compound near the query, drawn: its leaflet (drawing and id), its Tanimoto to the
 * query, and what the caller says about it (a potency and paper, or the targets it is active on).
 */
function CompoundCard({
  strId,
  similarity,
  alt,
  label,
  testId,
  children,
}: {
  strId: number;
  similarity: number;
  alt: string;
  label: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="sm" p={6} data-testid={testId} data-str-id={strId} aria-label={label} component="article">
      <Stack gap={4}>
        <Anchor
          component={Link}
          to={structureLeafletLink(strId)}
          aria-label={`Open the leaflet of structure ${strId}`}
          display="block"
          className={classes.drawing}
        >
          <StructureImage strId={strId} width={DRAWING.width} height={DRAWING.height} alt={alt} />
        </Anchor>
        <Group gap={6} justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={structureLeafletLink(strId)} size="xs" fw={600} data-testid={`${testId}-leaflet`}>
            #{strId}
          </Anchor>
          <Tooltip label="Tanimoto similarity to the query (Morgan radius 2)" withArrow>
            <Badge size="sm" variant="light" color="indigo" tt="none" style={NUMERIC}>
              Tc {formatScore(similarity)}
            </Badge>
          </Tooltip>
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** One nearest measured active: its drawing, similarity to the query, best potency, reference and leaflet. */
function EvidenceCard({ compound, targetName }: { compound: EvidenceCompound; targetName: string }) {
  const potency = evidencePotency(compound);
  return (
    <CompoundCard
      strId={compound.strId}
      similarity={compound.similarity}
      alt={`structure ${compound.strId}, an active of ${targetName}`}
      label={`Structure ${compound.strId}: Tanimoto ${formatScore(compound.similarity)}, ${potency}`}
      testId="prediction-evidence"
    >
      <Text size="xs" fw={500} style={NUMERIC}>
        {potency}
      </Text>
      {compound.refId !== null ? (
        <Anchor component={Link} to={referenceLeafletLink(compound.refId)} size="xs" lineClamp={2} title={compound.reference ?? undefined}>
          {compound.reference ?? `Reference ${compound.refId}`}
        </Anchor>
      ) : (
        <Text size="xs" c="dimmed" lineClamp={2}>
          {compound.reference ?? 'No reference'}
        </Text>
      )}
    </CompoundCard>
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

/** "pActivity 7.92 (12 nM)": how potent a near compound is on a target it is active on. */
function activeOnText(active: NearestCompound['activeOn'][number]): string {
  return `pActivity ${formatQuantity(active.pActivity, 'pActivity')} (${formatNanomolar(active.valueNm)})`;
}

/** One measured compound near a query no target is predicted for: what it is active on. */
function NearestCard({ compound }: { compound: NearestCompound }) {
  const activeOn = compound.activeOn.map((active) => `${active.name}, ${activeOnText(active)}`).join('; ');
  return (
    <CompoundCard
      strId={compound.strId}
      similarity={compound.similarity}
      alt={`structure ${compound.strId}, a measured compound near the query`}
      label={`Structure ${compound.strId}: Tanimoto ${formatScore(compound.similarity)}${activeOn ? `; active on ${activeOn}` : '; active on no target'}`}
      testId="prediction-nearest"
    >
      {compound.activeOn.length > 0 ? (
        <Stack gap={2} data-testid="prediction-nearest-active-on">
          <Text size="xs" c="dimmed">
            Active on
          </Text>
          {compound.activeOn.map((active) => (
            <div key={active.targetId} data-target-id={active.targetId}>
              <Text size="xs" fw={500} lh={1.3} lineClamp={2} title={active.name}>
                {active.name}
              </Text>
              <Text size="xs" c="dimmed" style={NUMERIC}>
                {activeOnText(active)}
              </Text>
            </div>
          ))}
        </Stack>
      ) : (
        <Text size="xs" c="dimmed">
          Measured, but active on no target (by the family thresholds).
        </Text>
      )}
    </CompoundCard>
  );
}

/** The measured compounds nearest the query, drawn with what they are active on (shown when nothing is predicted with confidence). */
export function NearestCompoundCards({ nearest }: { nearest: NearestCompound[] }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="xs" data-testid="prediction-nearest-list">
      {nearest.map((compound) => (
        <NearestCard key={compound.strId} compound={compound} />
      ))}
    </SimpleGrid>
  );
}
