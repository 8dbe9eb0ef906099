import { Anchor, Box, Checkbox, Stack, Table, Text } from '@mantine/core';
import type { CustomCellRendererProps, CustomTooltipProps } from 'ag-grid-react';
import { createContext, useContext, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { structureLeafletLink } from '@kb/contracts/leaflets';
import type { Qualifier, SheetCell, SheetRow } from '@kb/contracts/sheet';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import { BLANK, cellDetails, formatQualified, formatSheetNumber } from './cell-format.ts';

/** A core or query the drawings are laid out like (null: each drawn on its own). */
export interface DrawingAlignment {
  text: string;
  kind: 'smiles' | 'smarts';
}

/** What the cells share: the ticked rows, the page's ids, and how the drawings are aligned. */
export interface SheetGridContextValue {
  align: DrawingAlignment | null;
  ticked: ReadonlySet<number>;
  onTick: (strIds: number[], on: boolean) => void;
  pageIds: readonly number[];
}

export const SheetGridContext = createContext<SheetGridContextValue>({
  align: null,
  ticked: new Set(),
  onTick: () => undefined,
  pageIds: [],
});

export const STRUCTURE_SIZE = { width: 150, height: 96 } as const;

export function StructureCell({ data }: CustomCellRendererProps<SheetRow>) {
  const { align } = useContext(SheetGridContext);
  if (!data) return null;
  return (
    <Anchor
      component={Link}
      to={structureLeafletLink(data.strId)}
      display="block"
      aria-label={`Open the leaflet of structure ${data.strId}`}
    >
      <StructureImage
        strId={data.strId}
        align={align?.text ?? null}
        alignKind={align?.kind}
        width={STRUCTURE_SIZE.width}
        height={STRUCTURE_SIZE.height}
        alt={`Structure ${data.strId}`}
      />
    </Anchor>
  );
}

export function IdCell({ data }: CustomCellRendererProps<SheetRow>) {
  if (!data) return null;
  return (
    <Stack gap={0} justify="center" h="100%">
      <Text size="sm" fw={500} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {data.strId}
      </Text>
      {data.name && (
        <Text size="xs" c="dimmed" lineClamp={2} title={data.name} style={{ whiteSpace: 'normal', lineHeight: 1.2 }}>
          {data.name}
        </Text>
      )}
    </Stack>
  );
}

/**
 * A tick box pressed without moving the page: focusing it made the grid focus its cell and scroll
 * that fully into view, which moved a half-visible row's box from under the pointer between press
 * and release (no click). The press takes no focus (the click still ticks; Tab still reaches it),
 * and the grid does not see it. A native listener: React's own handlers run after the grid's.
 */
function useOwnPress() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const keep = (event: MouseEvent) => {
      event.preventDefault();
      event.stopPropagation();
    };
    element.addEventListener('mousedown', keep);
    return () => element.removeEventListener('mousedown', keep);
  }, []);
  return ref;
}

export function TickCell({ data }: CustomCellRendererProps<SheetRow>) {
  const { ticked, onTick } = useContext(SheetGridContext);
  const ref = useOwnPress();
  if (!data) return null;
  return (
    <div ref={ref}>
      <Checkbox
        size="xs"
        aria-label={`Tick structure ${data.strId}`}
        checked={ticked.has(data.strId)}
        onChange={(event) => onTick([data.strId], event.currentTarget.checked)}
        data-testid="sheet-tick"
      />
    </div>
  );
}

export function TickHeader() {
  const { ticked, onTick, pageIds } = useContext(SheetGridContext);
  const all = pageIds.length > 0 && pageIds.every((id) => ticked.has(id));
  const some = pageIds.some((id) => ticked.has(id));
  return (
    <Checkbox
      size="xs"
      aria-label="Tick every compound of this page"
      checked={all}
      indeterminate={some && !all}
      onChange={(event) => onTick([...pageIds], event.currentTarget.checked)}
      data-testid="sheet-tick-page"
    />
  );
}

/** A value with its qualifier; a censored one (only a bound is known) in italics, so it is never read as exact. */
function QualifiedValue({ value, qualifier }: { value: number; qualifier: Qualifier }) {
  const censored = qualifier !== '=';
  return (
    <Text
      span
      size="sm"
      fs={censored ? 'italic' : undefined}
      fw={censored ? 400 : 500}
      style={{ fontVariantNumeric: 'tabular-nums' }}
      data-qualifier={qualifier}
      title={
        censored
          ? qualifier === '>'
            ? 'Only a bound: at least this value (censored)'
            : 'Only a bound: at most this value (censored)'
          : undefined
      }
    >
      {formatQualified(value, qualifier)}
    </Text>
  );
}

function Blank() {
  return (
    <Text span size="sm" c="dimmed" aria-label="No value">
      {BLANK}
    </Text>
  );
}

/** An endpoint or difference cell (its colour is the column's cellStyle, sheet-grid.tsx). */
export function ValueCell({ value }: CustomCellRendererProps<SheetRow, { value: number; qualifier: Qualifier } | null>) {
  if (!value) return <Blank />;
  return <QualifiedValue value={value.value} qualifier={value.qualifier} />;
}

export function PropertyCell({ value }: CustomCellRendererProps<SheetRow, number | null>) {
  const integer = value !== null && value !== undefined && Number.isInteger(value);
  return (
    <Text span size="sm" style={{ fontVariantNumeric: 'tabular-nums' }} c={value === null || value === undefined ? 'dimmed' : undefined}>
      {value === null || value === undefined ? BLANK : integer ? String(value) : formatSheetNumber(value)}
    </Text>
  );
}

/** The hover of an endpoint cell: every aggregate, n, censored count, SD and range; then how to see the measurements. */
export function CellTooltip({ data, column }: CustomTooltipProps<SheetRow>) {
  // The cell is read from the row: the tooltip's own value is the text screen readers get.
  const match = /^e(\d+)$/.exec(column && 'getColId' in column ? column.getColId() : '');
  const value: SheetCell | null | undefined = match ? data?.cells[Number(match[1])] : null;
  if (!value) return null;
  return (
    <Box
      p="xs"
      bg="white"
      style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 6, boxShadow: 'var(--mantine-shadow-md)' }}
      data-testid="sheet-cell-tooltip"
    >
      <Table withRowBorders={false} verticalSpacing={1} horizontalSpacing={6} fz="xs">
        <Table.Tbody>
          {cellDetails(value).map((line) => (
            <Table.Tr key={line.label}>
              <Table.Td c="dimmed">{line.label}</Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {line.value}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt={4}>
        Click or press Enter for the measurements
      </Text>
    </Box>
  );
}
