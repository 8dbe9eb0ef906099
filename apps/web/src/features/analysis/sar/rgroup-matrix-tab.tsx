import { Alert, Anchor, Box, Group, Menu, Popover, ScrollArea, Select, Stack, Text, UnstyledButton } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { SarMeasure, SarRow, SarTable } from '@kb/contracts/sar';
import { errorMessage } from '../../../app/api-client.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { structureLeafletHref } from '../../chemistry/structure-highlight.ts';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import type { ValueRange } from './sar-model.ts';
import {
  activityColour,
  activityText,
  buildMatrix,
  defaultAxes,
  endpointLetter,
  measureShortLabel,
  measureValue,
  rgroupValue,
  sarValue,
  valueRange,
} from './sar-model.ts';
import { useVirtualCompound } from './sar-queries.ts';
import { ActivityLegend, MeasurePicker, RGroupDrawing } from './sar-parts.tsx';
import { coreHighlights } from './sar-table-tab.tsx';

/** Most R-groups per axis drawn at once: a bigger matrix is unreadable on a screen. */
const MAX_AXIS = 30;
const CELL = { width: 96, height: 64 };

function VirtualCompound({ core, rgroups }: { core: string; rgroups: Record<string, string | null> }) {
  const virtual = useVirtualCompound(core, rgroups, true);
  if (virtual.isPending) return <StructureImage smiles="" width={220} height={160} alt="Virtual compound loading" />;
  if (virtual.isError)
    return (
      <Text size="sm" c="red">
        {errorMessage(virtual.error)}
      </Text>
    );
  return (
    <Stack gap={4} data-testid="sar-virtual">
      <StructureImage smiles={virtual.data.smiles} width={220} height={160} alt={`Virtual compound ${virtual.data.smiles}`} />
      <Text size="xs" c="dimmed" maw={220} style={{ wordBreak: 'break-all' }}>
        {virtual.data.smiles}
      </Text>
    </Stack>
  );
}

/** An unmade combination: on demand, the virtual compound (other R positions as hydrogen). */
function EmptyCell({ core, rgroups, label }: { core: string; rgroups: Record<string, string | null>; label: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Popover opened={open} onChange={setOpen} withinPortal shadow="md" position="bottom">
      <Popover.Target>
        <UnstyledButton
          onClick={() => setOpen((v) => !v)}
          w={CELL.width}
          h={CELL.height}
          aria-label={`Not made: ${label}. Show the virtual compound`}
          data-testid="sar-matrix-empty"
          style={{ border: '1px dashed var(--mantine-color-gray-3)', borderRadius: 4, textAlign: 'center' }}
        >
          <Text size="xs" c="gray.5">
            +
          </Text>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown>
        {open && <VirtualCompound core={core} rgroups={rgroups} />}
        <Text size="xs" c="dimmed" mt={4}>
          Virtual compound: the core with these two groups (other positions hydrogen).
        </Text>
      </Popover.Dropdown>
    </Popover>
  );
}

function MadeCell({
  rows,
  value,
  range,
  highlight,
}: {
  rows: SarRow[];
  value: number;
  range: ValueRange | null;
  highlight: Parameters<typeof structureLeafletHref>[1];
}) {
  const colour = range ? activityColour(value, range) : { background: 'var(--mantine-color-gray-1)', color: 'inherit' };
  const style = {
    ...colour,
    width: CELL.width,
    height: CELL.height,
    borderRadius: 4,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexDirection: 'column' as const,
    overflow: 'hidden',
    padding: '0 4px',
  };
  // The cell's text stays inside it (one line each, cut with an ellipsis); the whole is its tooltip.
  const line = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: '100%' } as const;
  const title =
    rows.length > 1
      ? `${countNoun(rows.length, 'compound')}, median ${sarValue(value)}`
      : `Structure ${rows[0]!.strId}: ${sarValue(value)}`;
  const body = (
    <>
      <Text size="sm" fw={600} inherit style={line}>
        {sarValue(value)}
      </Text>
      {rows.length > 1 && (
        <Text size="xs" inherit style={line}>
          n={rows.length}
        </Text>
      )}
    </>
  );
  if (rows.length === 1) {
    const row = rows[0]!;
    return (
      <Anchor
        component={Link}
        to={structureLeafletHref(row.strId, highlight)}
        style={style}
        underline="never"
        aria-label={`Structure ${row.strId}: ${activityText(row.activity)}. Open its leaflet`}
        title={title}
        data-testid="sar-matrix-cell"
      >
        {body}
      </Anchor>
    );
  }
  return (
    <Menu withinPortal position="bottom">
      <Menu.Target>
        <UnstyledButton
          style={style}
          aria-label={`${countNoun(rows.length, 'compound')}, median ${sarValue(value)}. Choose one to open`}
          title={title}
          data-testid="sar-matrix-cell"
        >
          {body}
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {[...rows]
          .sort((a, b) => b.activity.value - a.activity.value)
          .map((row) => (
            <Menu.Item key={row.strId} component={Link} to={structureLeafletHref(row.strId, highlight)}>
              Structure {row.strId}: {activityText(row.activity)}
            </Menu.Item>
          ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** R-group matrix: two R positions against each other, cells coloured by (median) activity. */
export interface RGroupMatrixTabProps {
  table: SarTable;
  /** The endpoint or difference the cells show. */
  measure: SarMeasure;
  onMeasure: (measure: SarMeasure) => void;
  axes: [string, string] | null;
  onAxes: (axes: [string, string]) => void;
}

export function RGroupMatrixTab({ table, measure, onMeasure, axes, onAxes }: RGroupMatrixTabProps) {
  const [core, setCore] = useState(0);
  const range = useMemo(() => valueRange(table.rows.flatMap((row) => measureValue(row, measure) ?? [])), [table, measure]);
  const labels = table.labels;
  const chosen =
    axes && labels.includes(axes[0]) && labels.includes(axes[1])
      ? axes
      : defaultAxes(
          table.rows.filter((row) => row.core === core),
          labels,
        );
  if (!chosen) {
    return (
      <Alert color="gray" variant="light" data-testid="sar-matrix-none">
        The matrix needs two R positions; this core has {countNoun(labels.length, 'R position')}. Choose a smaller core to get more.
      </Alert>
    );
  }
  const [yLabel, xLabel] = chosen;
  const matrix = buildMatrix(table.rows, yLabel, xLabel, core, measure);
  const y = matrix.y.slice(0, MAX_AXIS);
  const x = matrix.x.slice(0, MAX_AXIS);
  const highlight = coreHighlights(table)[core] ?? null;
  const coreSmiles = table.cores[core]?.smiles ?? '';
  const options = labels.map((label) => ({ value: label, label }));

  return (
    <Stack gap="sm">
      <Group gap="md" align="flex-end">
        <MeasurePicker table={table} value={measure} onChange={onMeasure} />
        <Select
          label="Rows"
          data={options}
          value={yLabel}
          onChange={(value) => value && onAxes([value, value === xLabel ? yLabel : xLabel])}
          w={110}
          allowDeselect={false}
          data-testid="sar-matrix-rows"
        />
        <Select
          label="Columns"
          data={options}
          value={xLabel}
          onChange={(value) => value && onAxes([value === yLabel ? xLabel : yLabel, value])}
          w={110}
          allowDeselect={false}
          data-testid="sar-matrix-columns"
        />
        {table.cores.length > 1 && (
          <Select
            label="Core"
            data={table.cores.map((c, index) => ({
              value: String(index),
              label: `Core ${index + 1} (${countNoun(c.compounds, 'compound')})`,
            }))}
            value={String(core)}
            onChange={(value) => setCore(Number(value ?? 0))}
            w={200}
            allowDeselect={false}
          />
        )}
        <ActivityLegend
          range={range}
          unit={measureShortLabel(table, measure)}
          higher={measure.kind === 'difference' ? `more active on ${endpointLetter(table.differences[measure.index]!.a)}` : 'more active'}
        />
        <Text size="xs" c="dimmed">
          + : not made (click to draw the virtual compound)
        </Text>
      </Group>
      {(matrix.y.length > MAX_AXIS || matrix.x.length > MAX_AXIS) && (
        <Text size="xs" c="dimmed">
          Showing the {MAX_AXIS} most frequent groups per axis ({matrix.y.length} × {matrix.x.length} in all).
        </Text>
      )}
      <ScrollArea type="auto">
        <Box component="table" style={{ borderCollapse: 'separate', borderSpacing: 3 }} data-testid="sar-matrix">
          <thead>
            <tr>
              <th>
                <Text size="xs" c="dimmed">
                  {yLabel} ↓ · {xLabel} →
                </Text>
              </th>
              {x.map((group) => (
                <th key={group} scope="col">
                  <RGroupDrawing smiles={rgroupValue(group)} width={CELL.width} height={CELL.height} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {y.map((rowGroup) => (
              <tr key={rowGroup}>
                <th scope="row">
                  <RGroupDrawing smiles={rgroupValue(rowGroup)} width={CELL.width} height={CELL.height} />
                </th>
                {x.map((columnGroup) => {
                  const cell = matrix.cell(rowGroup, columnGroup);
                  return (
                    <td key={columnGroup}>
                      {cell.value === null ? (
                        <EmptyCell
                          core={coreSmiles}
                          rgroups={{ [yLabel]: rgroupValue(rowGroup), [xLabel]: rgroupValue(columnGroup) }}
                          label={`${yLabel} ${rowGroup}, ${xLabel} ${columnGroup}`}
                        />
                      ) : (
                        <MadeCell rows={cell.rows} value={cell.value} range={range} highlight={highlight} />
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </Box>
      </ScrollArea>
    </Stack>
  );
}
