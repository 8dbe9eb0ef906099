import { Anchor, Box, Group, HoverCard, Select, Text } from '@mantine/core';
import type { SarMeasure, SarTable } from '@kb/contracts/sar';
import { Link } from 'react-router';
import type { StructureHighlight } from '@kb/contracts/results';
import { formatNumber } from '../../../app/format/number-format.ts';
import { structureLeafletHref } from '../../chemistry/structure-highlight.ts';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import type { ValueRange } from './sar-model.ts';
import { HYDROGEN, sameMeasure, scaleGradient, tableMeasures } from './sar-model.ts';

/** The colour scale of activity, with its ends. */
export function ActivityLegend({ range, unit, higher = 'more active' }: { range: ValueRange | null; unit: string; higher?: string }) {
  if (!range) return null;
  return (
    <Group
      gap={6}
      wrap="nowrap"
      data-testid="sar-legend"
      aria-label={`Colour scale of ${unit}: dark purple ${formatNumber(range.min)}, yellow ${formatNumber(range.max)}`}
    >
      <Text size="xs">{formatNumber(range.min)}</Text>
      <Box w={140} h={10} style={{ background: scaleGradient(), borderRadius: 3 }} />
      <Text size="xs">{formatNumber(range.max)}</Text>
      <Text size="xs" c="dimmed">
        {unit} (higher = {higher})
      </Text>
    </Group>
  );
}

/** An R-group with its attachment point drawn, or "H" where the position holds nothing. */
export function RGroupDrawing({ smiles, width, height }: { smiles: string | null; width: number; height: number }) {
  if (smiles === null || smiles === HYDROGEN) {
    return (
      <Text size="sm" fw={600} w={width} ta="center" aria-label="Hydrogen">
        H
      </Text>
    );
  }
  return <StructureImage smiles={smiles} width={width} height={height} alt={`R-group ${smiles}`} />;
}

/** A compound drawn (hover: large), linked to its leaflet with the core highlighted there too. */
export interface CompoundDrawingProps {
  strId: number;
  highlight: StructureHighlight | null;
  /** rest: the highlight's complement is coloured (what differs from it); match by default. */
  highlightMode?: 'match' | 'rest';
  /** The highlight the leaflet link carries; the drawn one by default. */
  leafletHighlight?: StructureHighlight | null;
  /** A substructure to lay the drawing out by (RDKit's aligned coordinates): two compounds drawn with one template share its orientation. */
  align?: StructureHighlight | null;
  width: number;
  height: number;
  /** The drawing on hover: larger than the one in place (a card's drug-sized compound needs more than 300 × 220). */
  hover?: { width: number; height: number };
}

export function CompoundDrawing({
  strId,
  highlight,
  highlightMode = 'match',
  leafletHighlight = highlight,
  align = null,
  width,
  height,
  hover = { width: 300, height: 220 },
}: CompoundDrawingProps) {
  const drawing = (w: number, h: number) => (
    <StructureImage
      strId={strId}
      highlight={highlight?.text ?? null}
      highlightKind={highlight?.kind ?? 'smarts'}
      highlightMode={highlightMode}
      align={align?.text ?? null}
      alignKind={align?.kind ?? 'smarts'}
      width={w}
      height={h}
      alt={`Structure ${strId}`}
    />
  );
  return (
    <HoverCard openDelay={300} closeDelay={50} position="right-start" shadow="md" withinPortal>
      <HoverCard.Target>
        <Anchor
          component={Link}
          to={structureLeafletHref(strId, leafletHighlight)}
          aria-label={`Open the leaflet of structure ${strId}`}
          display="block"
        >
          {drawing(width, height)}
        </Anchor>
      </HoverCard.Target>
      <HoverCard.Dropdown p={4}>{drawing(hover.width, hover.height)}</HoverCard.Dropdown>
    </HoverCard>
  );
}

/** What the matrix or the Free-Wilson fit reads: an endpoint (A, B …) or a difference column; shown only when the table has more than one. */
export function MeasurePicker({ table, value, onChange }: { table: SarTable; value: SarMeasure; onChange: (measure: SarMeasure) => void }) {
  const measures = tableMeasures(table);
  if (measures.length < 2) return null;
  const key = (m: SarMeasure) => `${m.kind}:${m.index}`;
  return (
    <Select
      label="Values"
      data={measures.map(({ measure, label }) => ({ value: key(measure), label }))}
      value={key(value)}
      onChange={(picked) => {
        const found = measures.find(({ measure }) => key(measure) === picked);
        if (found && !sameMeasure(found.measure, value)) onChange(found.measure);
      }}
      allowDeselect={false}
      w={420}
      data-testid="sar-measure"
    />
  );
}
