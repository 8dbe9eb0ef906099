import '../../results/grid/ag-grid-setup.ts';
import { Anchor, Badge, Button, Collapse, Group, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import type { CellKeyDownEvent, ColDef } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useCallback, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { StructureHighlight } from '@kb/contracts/results';
import type { SarRow, SarTable } from '@kb/contracts/sar';
import { NO_NUMBER, formatQuantity } from '../../../app/format/number-format.ts';
import { formatUnit } from '../../../app/format/unit-format.ts';
import { useMeasurementList } from '../../leaflets/measurement-list.tsx';
import { countNoun } from '../../../app/format/plural.ts';
import { structureLeafletHref } from '../../chemistry/structure-highlight.ts';
import { resultsGridTheme } from '../../results/grid/ag-grid-setup.ts';
import type { GridDensity } from '../../results/results-store.ts';
import { useResultsStore } from '../../results/results-store.ts';
import { DensityControl } from '../../results/toolbar/density-control.tsx';
import type { ValueRange } from './sar-model.ts';
import { activityColour, activityText, coreHighlight, sarValue } from './sar-model.ts';
import { ActivityLegend, CompoundDrawing, RGroupDrawing } from './sar-parts.tsx';

type Cell = CustomCellRendererProps<SarRow>;

/**
 * Row heights and drawing sizes of the SAR table per density. Larger than the results grid's
 * compact rows: a chemist reads the compound and its R-groups here, not just recognises a scaffold.
 */
const SAR_LAYOUT: Record<GridDensity, { rowHeight: number; structure: { width: number; height: number } }> = {
  compact: { rowHeight: 72, structure: { width: 150, height: 64 } },
  comfortable: { rowHeight: 122, structure: { width: 170, height: 110 } },
};

/** The highlight of each core of the table (its attachment points dropped). */
export function coreHighlights(table: SarTable): StructureHighlight[] {
  return table.cores.map((core) => ({ kind: 'smarts', text: coreHighlight(core.smiles) }));
}

interface TableContext {
  highlights: StructureHighlight[];
  range: ValueRange | null;
  drawing: { width: number; height: number };
  /** Every measurement of a row's compound on the table's target (of its activity type). */
  openMeasurements: (row: SarRow) => void;
}

function CompoundCell({ data, context }: Cell & { context: TableContext }) {
  if (!data) return null;
  return <CompoundDrawing strId={data.strId} highlight={context.highlights[data.core] ?? null} {...context.drawing} />;
}

function IdCell({ data, context }: Cell & { context: TableContext }) {
  if (!data) return null;
  return (
    <Anchor component={Link} to={structureLeafletHref(data.strId, context.highlights[data.core] ?? null)} size="sm" data-testid="sar-compound-link">
      {data.strId}
    </Anchor>
  );
}

/** The compound's activity on the colour scale; a click (or Enter) lists the measurements behind it. */
function ActivityCell({ data, context }: Cell & { context: TableContext }) {
  if (!data) return null;
  const colour = context.range ? activityColour(data.activity.value, context.range) : null;
  return (
    <UnstyledButton w="100%" onClick={() => context.openMeasurements(data)} aria-label={`${activityText(data.activity)}: show every measurement of compound ${data.strId}`} title="Show every measurement behind this value">
      <Text size="sm" px={6} w="100%" style={{ ...(colour ?? {}), borderRadius: 4, lineHeight: '24px' }} data-testid="sar-activity" data-colour={colour?.background}>
        {activityText(data.activity)}
      </Text>
    </UnstyledButton>
  );
}

function rgroupRenderer(label: string) {
  return function RGroupCell({ data, context }: Cell & { context: TableContext }) {
    if (!data) return null;
    return <RGroupDrawing smiles={data.rgroups[label] ?? null} width={Math.min(110, context.drawing.width)} height={context.drawing.height} />;
  };
}

const numberColumn = (field: 'mw' | 'clogp' | 'le' | 'lipe', headerName: string, headerTooltip: string): ColDef<SarRow> => ({
  field,
  headerName,
  headerTooltip,
  width: 96,
  filter: 'agNumberColumnFilter',
  valueFormatter: ({ value }) => (field === 'mw' ? formatQuantity(value as number | null, 'molecularWeight') : typeof value === 'number' ? sarValue(value) : NO_NUMBER),
  type: 'numericColumn',
});

function columnsOf(table: SarTable, drawingWidth: number): ColDef<SarRow>[] {
  return [
    { field: 'strId', headerName: 'ID', width: 90, cellRenderer: IdCell, filter: 'agNumberColumnFilter', pinned: 'left' },
    { colId: 'structure', headerName: 'Structure', width: drawingWidth + 24, cellRenderer: CompoundCell, sortable: false, pinned: 'left' },
    ...table.labels.map(
      (label): ColDef<SarRow> => ({
        colId: `rgroup-${label}`,
        headerName: label,
        headerTooltip: `${label}: the group at this position of the core (H: none)`,
        valueGetter: ({ data }) => data?.rgroups[label] ?? 'H',
        cellRenderer: rgroupRenderer(label),
        width: Math.min(110, drawingWidth) + 24,
        filter: 'agTextColumnFilter',
      }),
    ),
    {
      colId: 'activity',
      headerName: table.endpoint.molar ? 'pActivity' : `${table.endpoint.activityType} (${formatUnit(table.endpoint.unit)})`,
      headerTooltip: 'Median of the compound’s measurements, with their number and spread; click a value for every measurement behind it',
      valueGetter: ({ data }) => data?.activity.value,
      cellRenderer: ActivityCell,
      // Room for "7.20 (n=3, 6.90–7.50)".
      width: 220,
      filter: 'agNumberColumnFilter',
      sort: 'desc',
    },
    numberColumn('mw', 'MW', 'Molecular weight (g/mol)'),
    numberColumn('clogp', 'cLogP', 'Calculated logP'),
    numberColumn('le', 'LE', 'Ligand efficiency: 1.37 × pActivity / heavy atoms (kcal/mol per heavy atom)'),
    numberColumn('lipe', 'LipE', 'Lipophilic efficiency: pActivity − cLogP'),
  ];
}

/** Compounds that are not in the table, each with the reason. */
function UnmatchedList({ table }: { table: SarTable }) {
  const [open, setOpen] = useState(false);
  if (table.unmatched.length === 0) return null;
  return (
    <Stack gap={4} data-testid="sar-unmatched">
      <Group gap="xs">
        <Button size="compact-sm" variant="subtle" onClick={() => setOpen((v) => !v)} aria-expanded={open}>
          Did not fit the {table.cores.length > 1 ? 'cores' : 'core'}
        </Button>
        <Badge variant="light" color="gray" data-testid="sar-unmatched-count">
          {table.unmatched.length}
        </Badge>
      </Group>
      <Collapse expanded={open}>
        <Table striped withTableBorder fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>ID</Table.Th>
              <Table.Th>Value</Table.Th>
              <Table.Th>Why it is not in the table</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {table.unmatched.map((row) => (
              <Table.Tr key={row.strId}>
                <Table.Td>
                  <Anchor component={Link} to={structureLeafletHref(row.strId, null)}>
                    {row.strId}
                  </Anchor>
                </Table.Td>
                <Table.Td>{activityText(row.activity)}</Table.Td>
                <Table.Td>{row.reason}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Collapse>
    </Stack>
  );
}

/** The SAR table: one row per compound, R-groups drawn, activity on the colour scale. */
export function SarTableTab({ table, range }: { table: SarTable; range: ValueRange | null }) {
  const density = useResultsStore((store) => store.density);
  const layout = SAR_LAYOUT[density];
  const navigate = useNavigate();
  const highlights = useMemo(() => coreHighlights(table), [table]);
  const columns = useMemo(() => columnsOf(table, layout.structure.width), [table, layout.structure.width]);
  const measurements = useMeasurementList();
  const { open: openMeasurementList } = measurements;
  const { targetId, targetName, activityType } = table.endpoint;
  const openMeasurements = useCallback(
    (row: SarRow) => openMeasurementList({ idType: 'structure', id: row.strId, targetId, type: activityType, label: `structure ${row.strId} on ${targetName}` }),
    [openMeasurementList, targetId, targetName, activityType],
  );
  const context: TableContext = useMemo(() => ({ highlights, range, drawing: layout.structure, openMeasurements }), [highlights, range, layout.structure, openMeasurements]);
  const theme = useMemo(() => resultsGridTheme.withParams({ rowHeight: layout.rowHeight }), [layout.rowHeight]);
  const height = Math.min(640, 56 + table.rows.length * layout.rowHeight);
  const openLeaflet = (event: CellKeyDownEvent<SarRow>) => {
    const key = (event.event as KeyboardEvent | undefined)?.key;
    if (key !== 'Enter' || !event.data) return;
    // Enter on the activity opens the measurements behind it; on any other cell the compound's leaflet.
    if (event.column.getColId() === 'activity') openMeasurements(event.data);
    else navigate(structureLeafletHref(event.data.strId, highlights[event.data.core] ?? null));
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group gap="md">
          <Text size="sm" data-testid="sar-table-count" data-value={table.rows.length}>
            {countNoun(table.rows.length, 'compound')} on {countNoun(table.cores.length, 'core')} · {table.labels.join(', ') || 'no R positions'}
          </Text>
          <ActivityLegend range={range} unit={formatUnit(table.endpoint.unit)} />
        </Group>
        <DensityControl />
      </Group>
      <div style={{ height }} data-testid="sar-table">
        <AgGridReact<SarRow>
          theme={theme}
          rowData={table.rows}
          columnDefs={columns}
          context={context}
          getRowId={({ data }) => String(data.strId)}
          defaultColDef={{ sortable: true, resizable: true, cellStyle: { display: 'flex', alignItems: 'center' } }}
          onCellKeyDown={openLeaflet}
          tooltipShowDelay={300}
        />
      </div>
      <UnmatchedList table={table} />
      {measurements.drawer}
      {table.endpoint.note && (
        <Text size="xs" c="dimmed">
          {table.endpoint.note}
        </Text>
      )}
    </Stack>
  );
}

