import '../../app/grid/ag-grid-setup.ts';
import { ActionIcon, Anchor, Box, HoverCard, Tooltip } from '@mantine/core';
import { IconListNumbers } from '@tabler/icons-react';
import type { ColDef, SortChangedEvent } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useCallback, useMemo } from 'react';
import { Link } from 'react-router';
import type { DqColumnInfo, DqRunResponse, DqSort } from '@kb/contracts/dynamic-query';
import { structureLeafletLink } from '@kb/contracts/leaflets';
import { formatUnit } from '../../app/format/unit-format.ts';
import { StructureImage } from '../chemistry/structure-image.tsx';
import { resultsGridTheme } from '../../app/grid/ag-grid-setup.ts';
import { ENLARGED_STRUCTURE, gridHeight } from '../results/grid/grid-layout.ts';
import type { MeasurementSubject } from '../leaflets/use-measurements.ts';

type Row = DqRunResponse['rows'][number];

const ROW_HEIGHT = 34;
/** Rows with a structure drawing: the results grid's compact drawing, hovering shows it large. */
const STRUCTURE_ROW_HEIGHT = 64;
const DRAWING = { width: 120, height: 56 } as const;
const MEASUREMENTS_COLUMN = '__measurements';

/** Columns that hold a structure's SMILES (structures' own, or read through the structure join). */
function isSmilesColumn(column: Pick<DqColumnInfo, 'key' | 'type'>): boolean {
  return column.type === 'text' && (column.key === 'smiles' || column.key === 'canonical_smiles');
}

function wholeId(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

/**
 * Whose measurements a row stands for, from the columns it holds: an activity its compound and
 * target; a structure, compound record or development compound all of its measurements. Null for
 * rows of other tables, or when the query did not select the ids.
 */
function measurementSubjectOf(entity: string, row: Row): MeasurementSubject | null {
  const strId = wholeId(row.str_id);
  switch (entity) {
    case 'activities': {
      const actId = wholeId(row.act_id);
      if (actId !== null) return { actId, label: `activity ${actId}’s compound and target` };
      const targetId = wholeId(row.target_id);
      return strId !== null && targetId !== null ? { idType: 'structure', id: strId, targetId } : null;
    }
    case 'structures':
      return strId !== null ? { idType: 'structure', id: strId, targetId: 'all' } : null;
    case 'compounds': {
      const gvkId = wholeId(row.gvk_id);
      if (gvkId !== null) return { idType: 'compound', id: gvkId, targetId: 'all' };
      return strId !== null ? { idType: 'structure', id: strId, targetId: 'all' } : null;
    }
    case 'clinicalcompounds': {
      const dcmId = wholeId(row.clinical_compound_id);
      if (dcmId !== null) return { idType: 'dcm', id: dcmId, targetId: 'all' };
      return strId !== null ? { idType: 'structure', id: strId, targetId: 'all' } : null;
    }
    default:
      return null;
  }
}

/** Entities whose rows are (or name) compounds: their rows can open a measurement list. */
const MEASURED_ENTITIES = new Set(['activities', 'structures', 'compounds', 'clinicalcompounds']);

/** A SMILES drawn (RDKit, as in the results grid), linked to its leaflet when the row has a structure id; hover shows it large. */
function SmilesCell({ data, value }: CustomCellRendererProps<Row>) {
  if (typeof value !== 'string' || value === '') return null;
  const strId = wholeId(data?.str_id);
  const drawing = (size: { width: number; height: number }) => (
    <StructureImage smiles={value} width={size.width} height={size.height} alt={`Structure ${value}`} />
  );
  const image = (
    <HoverCard openDelay={250} closeDelay={50} position="right-start" shadow="md" withinPortal>
      <HoverCard.Target>
        <Box title={value} data-testid="dq-structure">
          {drawing(DRAWING)}
        </Box>
      </HoverCard.Target>
      <HoverCard.Dropdown p={4}>{drawing(ENLARGED_STRUCTURE)}</HoverCard.Dropdown>
    </HoverCard>
  );
  if (strId === null) return image;
  return (
    <Anchor component={Link} to={structureLeafletLink(strId)} aria-label={`Open the leaflet of structure ${strId}`} display="block">
      {image}
    </Anchor>
  );
}

function MeasurementsCell({ data, context }: CustomCellRendererProps<Row> & { context: GridContext }) {
  const subject = data ? measurementSubjectOf(context.entity, data) : null;
  if (!subject || !context.onOpenMeasurements) return null;
  const open = context.onOpenMeasurements;
  return (
    <Tooltip label="Every measurement of this row’s compound" openDelay={300}>
      <ActionIcon
        size="sm"
        variant="subtle"
        onClick={() => open(subject)}
        aria-label="Every measurement of this row’s compound"
        aria-haspopup="dialog"
        data-testid="dq-open-measurements"
      >
        <IconListNumbers size={14} />
      </ActionIcon>
    </Tooltip>
  );
}

interface GridContext {
  entity: string;
  onOpenMeasurements: ((subject: MeasurementSubject) => void) | null;
}

function columnDef(column: DqColumnInfo, sort: DqSort | null | undefined): ColDef<Row> {
  const numeric = column.type === 'number' || column.type === 'integer';
  const base: ColDef<Row> = {
    colId: column.key,
    field: column.key,
    headerName: column.label,
    headerTooltip: `${column.label} (${column.type})`,
    sortable: true,
    sort: sort?.column === column.key ? sort.direction : null,
    type: numeric ? 'rightAligned' : undefined,
    minWidth: numeric ? 100 : 140,
    flex: column.type === 'text' ? 1 : undefined,
  };
  if (isSmilesColumn(column))
    return {
      ...base,
      cellRenderer: SmilesCell,
      flex: undefined,
      width: DRAWING.width + 24,
      minWidth: DRAWING.width + 24,
      cellStyle: { display: 'flex', alignItems: 'center' },
    };
  // Units as a chemist writes them (display only: the query and its export keep the stored text).
  const unit = column.type === 'text' && column.key.endsWith('_uom');
  return {
    ...base,
    valueFormatter:
      column.type === 'boolean'
        ? (params) => (params.value === null || params.value === undefined ? '' : params.value ? 'yes' : 'no')
        : unit
          ? (params) => formatUnit(typeof params.value === 'string' ? params.value : null)
          : undefined,
    tooltipValueGetter: column.type === 'text' ? (params) => (params.value == null ? null : String(params.value)) : undefined,
  };
}

/**
 * One page of a dynamic query in AG Grid, as the results grid shows a tab: the server pages and
 * sorts, the grid holds just the page and reports a header click as the new sort. SMILES are drawn;
 * rows of compounds open their measurement list.
 */
export function DqGrid({
  columns,
  rows,
  loading,
  sort,
  onSortChange,
  entity = '',
  onOpenMeasurements = null,
}: {
  columns: DqColumnInfo[];
  rows: Row[];
  loading: boolean;
  sort: DqSort | null | undefined;
  onSortChange: (sort: DqSort | null) => void;
  entity?: string;
  onOpenMeasurements?: ((subject: MeasurementSubject) => void) | null;
}) {
  const measured = onOpenMeasurements !== null && MEASURED_ENTITIES.has(entity);
  const columnDefs = useMemo(() => {
    const defs = columns.map((column) => columnDef(column, sort));
    if (!measured) return defs;
    const open: ColDef<Row> = {
      colId: MEASUREMENTS_COLUMN,
      headerName: '',
      headerTooltip: 'Every measurement of the row’s compound',
      cellRenderer: MeasurementsCell,
      width: 48,
      pinned: 'left',
      sortable: false,
      resizable: false,
      suppressMovable: true,
      cellStyle: { display: 'flex', alignItems: 'center' },
    };
    return [open, ...defs];
  }, [columns, sort, measured]);
  const context: GridContext = useMemo(() => ({ entity, onOpenMeasurements }), [entity, onOpenMeasurements]);
  const sortChanged = useCallback(
    (event: SortChangedEvent<Row>) => {
      if (event.source !== 'uiColumnSorted') return;
      const sorted = event.api.getColumnState().find((state) => state.sort && state.colId !== MEASUREMENTS_COLUMN);
      onSortChange(sorted?.sort ? { column: sorted.colId, direction: sorted.sort } : null);
    },
    [onSortChange],
  );
  const rowHeight = columns.some(isSmilesColumn) ? STRUCTURE_ROW_HEIGHT : ROW_HEIGHT;
  const theme = useMemo(() => resultsGridTheme.withParams({ rowHeight }), [rowHeight]);
  return (
    <div data-testid="dq-grid" aria-busy={loading} style={{ width: '100%', height: gridHeight(rows.length, rowHeight) }}>
      <AgGridReact<Row>
        rowData={rows}
        columnDefs={columnDefs}
        context={context}
        defaultColDef={{ cellDataType: false, resizable: true, suppressHeaderMenuButton: true }}
        theme={theme}
        loading={loading}
        suppressColumnVirtualisation
        suppressRowVirtualisation
        suppressMultiSort
        onSortChanged={sortChanged}
        tooltipShowDelay={400}
      />
    </div>
  );
}
