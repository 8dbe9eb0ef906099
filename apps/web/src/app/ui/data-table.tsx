import { Table, Text } from '@mantine/core';
import type { MantineSpacing, TableTdProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One column of a DataTable: its header and how a row fills its cell. `cellProps` carries what a
 * column needs beyond that (no wrapping, a minimum width); `align: 'right'` is for figures.
 */
export interface DataColumn<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row, index: number) => ReactNode;
  align?: 'left' | 'right';
  cellProps?: Omit<TableTdProps, 'children'>;
}

/** `data-*` attributes of a row (what browser tests and styles find rows by). */
type RowData = Record<`data-${string}`, string | number | undefined>;

export interface DataTableProps<Row> {
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth: number;
  testId?: string;
  rowData?: (row: Row) => RowData;
  /** Shown under the header when there are no rows (e.g. a filter matched nothing). */
  empty?: ReactNode;
  verticalSpacing?: MantineSpacing;
}

/**
 * The read-only table of the app's lists (admin, dashboard, downloads): striped, highlighted on
 * hover, scrolling sideways on narrow screens. Grids with paging, sorting and selection are AG
 * Grid (results); this is for lists short enough to show whole.
 */
export function DataTable<Row>({ columns, rows, rowKey, minWidth, testId, rowData, empty, verticalSpacing }: DataTableProps<Row>) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped highlightOnHover verticalSpacing={verticalSpacing} data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} ta={column.align}>
                {column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={rowKey(row, index)} {...rowData?.(row)}>
              {columns.map((column) => (
                <Table.Td key={column.key} ta={column.align} {...column.cellProps}>
                  {column.cell(row, index)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {rows.length === 0 && empty && (
        <Text size="sm" c="dimmed" ta="center" py="md">
          {empty}
        </Text>
      )}
    </Table.ScrollContainer>
  );
}
