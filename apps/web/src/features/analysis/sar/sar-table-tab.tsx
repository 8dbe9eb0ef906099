import '../../../app/grid/ag-grid-setup.ts';
import { Anchor, Badge, Button, Collapse, Group, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import type { CellKeyDownEvent, ColDef } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useCallback, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { StructureHighlight } from '@kb/contracts/results';
import type { SarMeasure, SarRow, SarTable } from '@kb/contracts/sar';
import { NO_NUMBER, formatQuantity } from '../../../app/format/number-format.ts';
import { formatUnit } from '../../../app/format/unit-format.ts';
import { useMeasurementList } from '../../leaflets/measurement-list.tsx';
import { countNoun } from '../../../app/format/plural.ts';
import { structureLeafletHref } from '../../chemistry/structure-highlight.ts';
import { resultsGridTheme } from '../../../app/grid/ag-grid-setup.ts';
import type { GridDensity } from '../../results/results-store.ts';
import { useResultsStore } from '../../results/results-store.ts';
import { DensityControl } from '../../results/toolbar/density-control.tsx';
import type { ValueRange } from './sar-model.ts';
import {
  activityColour,
  activityText,
  blanksLast,
  coreHighlight,
  endpointLetter,
  endpointName,
  measureShortLabel,
  measureValue,
  sarValue,
  signedValue,
  tableFootnote,
  valueRange,
} from './sar-model.ts';
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

/** An R-group's drawing: small groups, so narrower than the compound's. */
const RGROUP_WIDTH = 86;

/** The highlight of each core of the table (its attachment points dropped). */
export function coreHighlights(table: SarTable): StructureHighlight[] {
  return table.cores.map((core) => ({ kind: 'smarts', text: coreHighlight(core.smiles) }));
}

interface TableContext {
  highlights: StructureHighlight[];
  /** The colour scale of each endpoint's column and of each difference column: each its own. */
  ranges: { endpoints: (ValueRange | null)[]; differences: (ValueRange | null)[] };
  drawing: { width: number; height: number };
  /** Every measurement of a row's compound on an endpoint's target (of its activity type). */
  openMeasurements: (row: SarRow, endpoint: number) => void;
}

function CompoundCell({ data, context }: Cell & { context: TableContext }) {
  if (!data) return null;
  return <CompoundDrawing strId={data.strId} highlight={context.highlights[data.core] ?? null} {...context.drawing} />;
}

function IdCell({ data, context }: Cell & { context: TableContext }) {
  if (!data) return null;
  return (
    <Anchor
      component={Link}
      to={structureLeafletHref(data.strId, context.highlights[data.core] ?? null)}
      size="sm"
      data-testid="sar-compound-link"
    >
      {data.strId}
    </Anchor>
  );
}

/** A compound's value of an endpoint on that column's colour scale; a click (or Enter) lists the measurements behind it. */
function activityRenderer(endpoint: number) {
  return function ActivityCell({ data, context }: Cell & { context: TableContext }) {
    const activity = data ? (endpoint === 0 ? data.activity : data.values[endpoint]) : null;
    if (!data || !activity) {
      return (
        <Text size="sm" c="dimmed" px={6} aria-label="Not measured on this endpoint" data-testid="sar-activity-none">
          {NO_NUMBER}
        </Text>
      );
    }
    const range = context.ranges.endpoints[endpoint] ?? null;
    const colour = range ? activityColour(activity.value, range) : null;
    return (
      <UnstyledButton
        w="100%"
        onClick={() => context.openMeasurements(data, endpoint)}
        aria-label={`${activityText(activity)}: show every measurement of compound ${data.strId}`}
        title="Show every measurement behind this value"
      >
        <div
          style={{ ...(colour ?? {}), borderRadius: 4, padding: '2px 5px', width: '100%', lineHeight: 1.3 }}
          data-testid={endpoint === 0 ? 'sar-activity' : `sar-activity-${endpoint}`}
          data-colour={colour?.background}
        >
          {/* The median first; its n and spread below it, so the column stays narrow. */}
          <Text size="sm" fw={600} span display="block">
            {sarValue(activity.value)}
          </Text>
          {activity.n > 1 && (
            <Text size="xs" span display="block" style={{ whiteSpace: 'nowrap' }}>
              n={activity.n}, {sarValue(activity.min)}–{sarValue(activity.max)}
            </Text>
          )}
        </div>
      </UnstyledButton>
    );
  };
}

/** A difference column's value (A − B), signed, on its own colour scale. */
function differenceRenderer(index: number) {
  return function DifferenceCell({ data, context }: Cell & { context: TableContext }) {
    const value = data?.differences[index] ?? null;
    if (value === null) {
      return (
        <Text size="sm" c="dimmed" px={6} aria-label="Not measured on both endpoints">
          {NO_NUMBER}
        </Text>
      );
    }
    const range = context.ranges.differences[index] ?? null;
    const colour = range ? activityColour(value, range) : null;
    return (
      <Text
        size="sm"
        px={6}
        w="100%"
        style={{ ...(colour ?? {}), borderRadius: 4, lineHeight: '24px' }}
        data-testid={`sar-difference-${index}`}
        data-value={value}
      >
        {signedValue(value)}
      </Text>
    );
  };
}

function rgroupRenderer(label: string) {
  return function RGroupCell({ data, context }: Cell & { context: TableContext }) {
    if (!data) return null;
    return (
      <RGroupDrawing
        smiles={data.rgroups[label] ?? null}
        width={Math.min(RGROUP_WIDTH, context.drawing.width)}
        height={context.drawing.height}
      />
    );
  };
}

/**
 * A property column; `minWidth` leaves its header room beside the sort and filter icons (sized to
 * the label: "cLogP" wider than "LE"), so that the columns fit a 1,280-px window without a header
 * broken across lines.
 */
const numberColumn = (
  field: 'mw' | 'clogp' | 'le' | 'lipe',
  headerName: string,
  headerTooltip: string,
  minWidth: number,
): ColDef<SarRow> => ({
  field,
  headerName,
  headerTooltip,
  width: minWidth + 8,
  minWidth,
  filter: 'agNumberColumnFilter',
  comparator: blanksLast,
  valueFormatter: ({ value }) =>
    field === 'mw' ? formatQuantity(value as number | null, 'molecularWeight') : typeof value === 'number' ? sarValue(value) : NO_NUMBER,
  type: 'numericColumn',
});

function columnsOf(table: SarTable, drawingWidth: number): ColDef<SarRow>[] {
  return [
    { field: 'strId', headerName: 'ID', width: 76, minWidth: 60, cellRenderer: IdCell, filter: 'agNumberColumnFilter', pinned: 'left' },
    {
      colId: 'structure',
      headerName: 'Structure',
      width: drawingWidth + 24,
      minWidth: drawingWidth + 24,
      cellRenderer: CompoundCell,
      sortable: false,
      pinned: 'left',
    },
    ...table.labels.map(
      (label): ColDef<SarRow> => ({
        colId: `rgroup-${label}`,
        headerName: label,
        headerTooltip: `${label}: the group at this position of the core (H: none)`,
        valueGetter: ({ data }) => data?.rgroups[label] ?? 'H',
        cellRenderer: rgroupRenderer(label),
        width: Math.min(RGROUP_WIDTH, drawingWidth) + 24,
        minWidth: Math.min(RGROUP_WIDTH, drawingWidth) + 24,
        filter: 'agTextColumnFilter',
      }),
    ),
    ...table.endpoints.map(
      (endpoint, index): ColDef<SarRow> => ({
        colId: index === 0 ? 'activity' : `activity-${index}`,
        headerName: measureShortLabel(table, { kind: 'endpoint', index }),
        headerTooltip: `${endpointName(endpoint)}: median of the compound’s measurements, with their number and spread; click a value for every measurement behind it`,
        valueGetter: ({ data }) => (data ? measureValue(data, { kind: 'endpoint', index }) : null),
        cellRenderer: activityRenderer(index),
        // Room for "n=3, 6.90–7.50" under the median: the cell's own padding is narrow, its coloured box has one.
        width: 136,
        minWidth: 116,
        cellStyle: { display: 'flex', alignItems: 'center', paddingLeft: 4, paddingRight: 4 },
        filter: 'agNumberColumnFilter',
        comparator: blanksLast,
        ...(index === 0 ? { sort: 'desc' as const } : {}),
      }),
    ),
    ...table.differences.map(
      (difference, index): ColDef<SarRow> => ({
        colId: `difference-${index}`,
        headerName: measureShortLabel(table, { kind: 'difference', index }),
        headerTooltip: `pActivity ${difference.label}: above 0, more active on ${endpointLetter(difference.a)}`,
        valueGetter: ({ data }) => data?.differences[index] ?? null,
        cellRenderer: differenceRenderer(index),
        width: 108,
        minWidth: 108,
        filter: 'agNumberColumnFilter',
        comparator: blanksLast,
        type: 'numericColumn',
      }),
    ),
    numberColumn('mw', 'MW', 'Molecular weight (g/mol)', 80),
    numberColumn('clogp', 'cLogP', 'Calculated logP', 96),
    numberColumn('le', 'LE', 'Ligand efficiency: 1.37 × pActivity / heavy atoms (kcal/mol per heavy atom)', 76),
    numberColumn('lipe', 'LipE', 'Lipophilic efficiency: pActivity − cLogP', 86),
  ];
}

/** The colour scale of every endpoint and difference column, each over its own values. */
function measureRanges(table: SarTable): TableContext['ranges'] {
  return {
    endpoints: table.endpoints.map((_, index) =>
      valueRange(table.rows.flatMap((row) => measureValue(row, { kind: 'endpoint', index }) ?? [])),
    ),
    differences: table.differences.map((_, index) => valueRange(table.rows.flatMap((row) => row.differences[index] ?? []))),
  };
}

/** What A, B … and A − B stand for, how many compounds have each, and each column's colour scale. */
function EndpointsKey({ table, ranges }: { table: SarTable; ranges: TableContext['ranges'] }) {
  const count = (measure: SarMeasure) => table.rows.filter((row) => measureValue(row, measure) !== null).length;
  return (
    <Stack gap={2} data-testid="sar-endpoints-key">
      {table.endpoints.map((endpoint, index) => (
        <Group key={index} gap="xs" wrap="nowrap">
          <Text size="sm" fw={600} w={44}>
            {endpointLetter(index)}
          </Text>
          <Text size="sm" w={720} truncate="end" title={endpointName(endpoint)}>
            {endpointName(endpoint)} · {countNoun(count({ kind: 'endpoint', index }), 'compound')}
          </Text>
          <ActivityLegend range={ranges.endpoints[index] ?? null} unit={formatUnit(endpoint.unit)} />
        </Group>
      ))}
      {table.differences.map((difference, index) => (
        <Group key={`d${index}`} gap="xs" wrap="nowrap">
          <Text size="sm" fw={600} w={44}>
            {measureShortLabel(table, { kind: 'difference', index })}
          </Text>
          <Text size="sm" w={720} truncate="end" title={difference.label}>
            Difference in pActivity · {countNoun(count({ kind: 'difference', index }), 'compound')} measured on both
          </Text>
          <ActivityLegend
            range={ranges.differences[index] ?? null}
            unit={`${endpointLetter(difference.a)} − ${endpointLetter(difference.b)}`}
            higher={`more active on ${endpointLetter(difference.a)}`}
          />
        </Group>
      ))}
    </Stack>
  );
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
export function SarTableTab({ table }: { table: SarTable }) {
  const density = useResultsStore((store) => store.density);
  const layout = SAR_LAYOUT[density];
  const navigate = useNavigate();
  const highlights = useMemo(() => coreHighlights(table), [table]);
  const columns = useMemo(() => columnsOf(table, layout.structure.width), [table, layout.structure.width]);
  const measurements = useMeasurementList();
  const { open: openMeasurementList } = measurements;
  const { endpoints } = table;
  const openMeasurements = useCallback(
    (row: SarRow, index: number) => {
      const { targetId, targetName, activityType } = endpoints[index] ?? endpoints[0]!;
      openMeasurementList({
        idType: 'structure',
        id: row.strId,
        targetId,
        type: activityType,
        label: `structure ${row.strId} on ${targetName}`,
      });
    },
    [openMeasurementList, endpoints],
  );
  const ranges = useMemo(() => measureRanges(table), [table]);
  const context: TableContext = useMemo(
    () => ({ highlights, ranges, drawing: layout.structure, openMeasurements }),
    [highlights, ranges, layout.structure, openMeasurements],
  );
  const theme = useMemo(() => resultsGridTheme.withParams({ rowHeight: layout.rowHeight }), [layout.rowHeight]);
  const height = Math.min(640, 56 + table.rows.length * layout.rowHeight);
  const openLeaflet = (event: CellKeyDownEvent<SarRow>) => {
    const key = (event.event as KeyboardEvent | undefined)?.key;
    if (key !== 'Enter' || !event.data) return;
    // Enter on the activity opens the measurements behind it; on any other cell the compound's leaflet.
    const column = event.column.getColId();
    if (column === 'activity' || column.startsWith('activity-'))
      openMeasurements(event.data, column === 'activity' ? 0 : Number(column.slice('activity-'.length)));
    else navigate(structureLeafletHref(event.data.strId, highlights[event.data.core] ?? null));
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group gap="md">
          <Text size="sm" data-testid="sar-table-count" data-value={table.rows.length}>
            {countNoun(table.rows.length, 'compound')} on {countNoun(table.cores.length, 'core')} ·{' '}
            {table.labels.join(', ') || 'no R positions'}
          </Text>
          {table.endpoints.length === 1 && <ActivityLegend range={ranges.endpoints[0] ?? null} unit={formatUnit(table.endpoint.unit)} />}
        </Group>
        <DensityControl />
      </Group>
      {table.endpoints.length > 1 && <EndpointsKey table={table} ranges={ranges} />}
      <div style={{ height }} data-testid="sar-table">
        <AgGridReact<SarRow>
          theme={theme}
          rowData={table.rows}
          columnDefs={columns}
          context={context}
          getRowId={({ data }) => String(data.strId)}
          // Headers wrap ("A: pActivity" on two lines in a narrow column) instead of being cut.
          defaultColDef={{
            sortable: true,
            resizable: true,
            wrapHeaderText: true,
            autoHeaderHeight: true,
            cellStyle: { display: 'flex', alignItems: 'center' },
          }}
          onCellKeyDown={openLeaflet}
          tooltipShowDelay={300}
          // The columns share the page's width (each no narrower than its minimum): no sideways scroll while they fit.
          autoSizeStrategy={{ type: 'fitGridWidth' }}
          // …and again when the window is resized or the density changes the columns.
          onGridSizeChanged={({ api }) => api.sizeColumnsToFit()}
          onNewColumnsLoaded={({ api }) => api.sizeColumnsToFit()}
        />
      </div>
      <UnmatchedList table={table} />
      {measurements.drawer}
      <Text size="xs" c="dimmed" data-testid="sar-table-note">
        {tableFootnote(table.endpoints)}
      </Text>
    </Stack>
  );
}
