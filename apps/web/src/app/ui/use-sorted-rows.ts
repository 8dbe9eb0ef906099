import { useMemo, useState } from 'react';

export type SortDirection = 'asc' | 'desc';
export type SortValue = string | number | null;

export interface SortState<K extends string> {
  column: K;
  direction: SortDirection;
}

/** Compares two cell values; unknown values go last whichever the direction. */
export function compareValues(a: SortValue, b: SortValue, direction: SortDirection): number {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const order =
    typeof a === 'number' && typeof b === 'number'
      ? a - b
      : String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
  return direction === 'asc' ? order : -order;
}

/** Rows sorted by one column at a time; clicking the sorted column again reverses it. */
export function useSortedRows<T, K extends string>(rows: readonly T[], value: (row: T, column: K) => SortValue, initial: SortState<K>) {
  const [sort, setSort] = useState<SortState<K>>(initial);
  const sorted = useMemo(
    // A stable sort: rows equal on the column keep the server's order.
    () => [...rows].sort((a, b) => compareValues(value(a, sort.column), value(b, sort.column), sort.direction)),
    [rows, value, sort],
  );
  const toggle = (column: K, firstDirection: SortDirection = 'asc') =>
    setSort((current) =>
      current.column === column
        ? { column, direction: current.direction === 'asc' ? 'desc' : 'asc' }
        : { column, direction: firstDirection },
    );
  return { sorted, sort, toggle };
}
