import { ActionIcon, Anchor, Badge, Box, Button, Checkbox, Group, HoverCard, Text, Tooltip } from '@mantine/core';
import { IconListDetails, IconListNumbers } from '@tabler/icons-react';
import type { CustomCellRendererProps, CustomHeaderProps } from 'ag-grid-react';
import { Link } from 'react-router';
import { referenceLeafletLink } from '@kb/contracts/leaflets';
import type { CellValue, ResultRow } from '@kb/contracts/results';
import { selectTabState, useResultsStore } from '../results-store.ts';
import { structureLeafletHref } from '../../chemistry/structure-highlight.ts';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import { isRowSelected, selectAllState, setSelectAll, toggleRow } from '../tab-state.ts';
import { useResultsGridContext } from './grid-context.ts';
import { DENSITY_LAYOUT, ENLARGED_STRUCTURE } from './grid-layout.ts';
import { formatCell, idOf, parseInnerGrids } from './result-columns.ts';
import classes from './results-grid.module.css';
import { StructureQuickView } from './structure-quick-view.tsx';
import { countNoun } from '../../../app/format/plural.ts';

type CellProps = CustomCellRendererProps<ResultRow, CellValue>;

/**
 * The structure of a row, linked to its compound leaflet (drawn from its SMILES when the row has no
 * structure id). A substructure search's query is highlighted (and the drawing laid out like it),
 * here and in the leaflet it links to.
 * Compact drawings are small: hovering shows the structure large.
 */
export function StructureCell({ data, value }: CellProps) {
  const { density, highlight } = useResultsGridContext();
  const strId = idOf(data?.str_id);
  const smiles = typeof value === 'string' && value ? value : undefined;
  // An activity of a compound without a structure (peptide, antibody, mixture): nothing to draw.
  if (strId === null && !smiles) {
    return data ? (
      <Text size="xs" c="dimmed" component="span" data-testid="no-structure">
        No structure
      </Text>
    ) : null;
  }
  const source = strId !== null ? { strId } : { smiles };
  const alt = strId !== null ? `Structure ${strId}` : `Structure ${smiles ?? ''}`;
  const drawing = (size: { width: number; height: number }) => (
    <StructureImage
      {...source}
      highlight={highlight?.text ?? null}
      highlightKind={highlight?.kind ?? 'smiles'}
      // Hits of a structure search are laid out like the query, so the shared part reads alike row after row.
      align={highlight?.text ?? null}
      alignKind={highlight?.kind ?? 'smiles'}
      width={size.width}
      height={size.height}
      alt={alt}
    />
  );
  const small = drawing(DENSITY_LAYOUT[density].structure);
  const image =
    density === 'compact' ? (
      <HoverCard openDelay={250} closeDelay={50} position="right-start" shadow="md" withinPortal>
        <HoverCard.Target>
          <Box>{small}</Box>
        </HoverCard.Target>
        <HoverCard.Dropdown p={4} data-testid="structure-enlarged">
          {drawing(ENLARGED_STRUCTURE)}
        </HoverCard.Dropdown>
      </HoverCard>
    ) : (
      small
    );
  if (strId === null) return image;
  return (
    <Anchor
      component={Link}
      to={structureLeafletHref(strId, highlight)}
      aria-label={`Open the leaflet of structure ${strId}`}
      data-testid="structure-link"
      display="block"
    >
      {image}
    </Anchor>
  );
}

/** "no" (ChEMBL could not standardise the activity: published type, relation, value, unit) as a badge. */
export function StandardisedCell({ value }: CellProps) {
  if (value === 'no') {
    return (
      <Badge
        size="sm"
        color="orange"
        variant="light"
        tt="none"
        title="ChEMBL could not standardise this activity: type, prefix, value and unit are as published"
        data-testid="not-standardised"
      >
        Standardised: no
      </Badge>
    );
  }
  return value === 'yes' ? (
    <Text size="sm" component="span">
      yes
    </Text>
  ) : null;
}

/** A structure id, linked to its compound leaflet, with a quick view of the structure beside it. */
export function StructureIdCell({ value }: CellProps) {
  const { highlight } = useResultsGridContext();
  const strId = idOf(value);
  if (strId === null) return null;
  return (
    <Group gap={4} wrap="nowrap">
      <Anchor component={Link} to={structureLeafletHref(strId, highlight)} size="sm">
        {strId}
      </Anchor>
      <StructureQuickView strId={strId} />
    </Group>
  );
}

/**
 * A reference id, linked to the reference leaflet's permanent link with this search as `?sid=`:
 * the owner sees which of its compounds the search holds, a colleague the link is shared with
 * sees the reference (docs/leaflets.md "Links that last").
 */
export function ReferenceIdCell({ value }: CellProps) {
  const { sessionId } = useResultsGridContext();
  const refId = idOf(value);
  if (refId === null) return null;
  return (
    <Anchor component={Link} to={referenceLeafletLink(refId, sessionId)} size="sm" data-testid="reference-link">
      {refId}
    </Anchor>
  );
}

/** An activity's value, with a button listing every measurement of its compound on its target. */
export function ActivityValueCell({ data, value, colDef }: CellProps) {
  const { tab, openMeasurements } = useResultsGridContext();
  const text = formatCell(value ?? null, { key: colDef?.colId ?? 'activity_value', type: 'number' });
  if (!data || tab !== 'activitiestab' || idOf(data.act_id) === null) return <>{text}</>;
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end" w="100%">
      <Text size="sm" component="span" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {text}
      </Text>
      <Tooltip label="Every measurement of this compound on this target" openDelay={300}>
        <ActionIcon
          size="sm"
          variant="subtle"
          onClick={() => openMeasurements(data)}
          aria-label="Every measurement of this compound on this target"
          aria-haspopup="dialog"
          data-testid="open-measurements"
        >
          <IconListNumbers size={14} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** Spec §3 inner grids: a button opening them beside the grid (AG Grid's master/detail is Enterprise-only). */
export function InnerGridsCell({ data, value }: CellProps) {
  const { openDetails } = useResultsGridContext();
  const grids = parseInnerGrids(value);
  if (!data || grids.length === 0) {
    return (
      <Text size="xs" c="dimmed" component="span">
        —
      </Text>
    );
  }
  const rows = grids.reduce((sum, grid) => sum + grid.rows.length, 0);
  return (
    <Button
      size="compact-xs"
      variant="light"
      leftSection={<IconListDetails size={14} />}
      onClick={() => openDetails(data)}
      aria-haspopup="dialog"
      data-testid="open-details"
    >
      {grids.length === 1 ? countNoun(rows, 'row') : `${grids.length} tables`}
    </Button>
  );
}

/** The tick box of one row (spec §4 selected / unselected rows). */
export function SelectCell({ data }: CellProps) {
  const { scope, sessionId, tab, idColumn, updateTab } = useResultsGridContext();
  const id = idOf(data?.[idColumn]);
  const selected = useResultsStore((state) => id !== null && isRowSelected(selectTabState(state, scope, sessionId, tab).selection, id));
  if (id === null) return null;
  // The whole cell is the box's label: a click anywhere in it ticks, not only on the 16 px box
  // (issue 14: a click beside the box, or on the sliver of a half-visible row, only focused the cell).
  return (
    <Box component="label" className={classes.tickCell} data-testid="row-select-cell">
      <Checkbox
        size="xs"
        aria-label={`Select row ${id}`}
        checked={selected}
        onChange={(event) => {
          const on = event.currentTarget.checked;
          updateTab((state) => ({ ...state, selection: toggleRow(state.selection, id, on) }));
        }}
        data-testid="row-select"
      />
    </Box>
  );
}

/** The header tick box: every row of every page (spec §4 select-all), indeterminate while only some are. */
export function SelectAllHeader(_props: CustomHeaderProps<ResultRow>) {
  const { scope, sessionId, tab, rowCount, updateTab } = useResultsGridContext();
  const state = useResultsStore((store) => selectAllState(selectTabState(store, scope, sessionId, tab).selection, rowCount));
  return (
    <Tooltip label="Select all rows on all pages" openDelay={300}>
      <Checkbox
        size="xs"
        aria-label="Select all (all pages)"
        checked={state === 'all'}
        indeterminate={state === 'some'}
        onChange={() => updateTab((current) => ({ ...current, selection: setSelectAll(state !== 'all') }))}
        data-testid="select-all"
      />
    </Tooltip>
  );
}
