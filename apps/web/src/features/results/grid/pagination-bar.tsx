import { Group, NativeSelect, Pagination, Text } from '@mantine/core';
import { PAGE_SIZES } from '@kb/contracts/result-tabs';
import { formatCount } from '../../../app/format/count-format.ts';

export interface PaginationBarProps {
  pageNumber: number;
  pageSize: number;
  rowCount: number;
  disabled: boolean;
  onPage: (pageNumber: number) => void;
  onPageSize: (pageSize: number) => void;
}

/** Server-side paging (spec §3 tab params): 0-based `pageNumber`, `pageSize` among PAGE_SIZES. */
export function PaginationBar({ pageNumber, pageSize, rowCount, disabled, onPage, onPageSize }: PaginationBarProps) {
  const pages = Math.max(1, Math.ceil(rowCount / pageSize));
  const first = rowCount === 0 ? 0 : pageNumber * pageSize + 1;
  const last = Math.min(rowCount, (pageNumber + 1) * pageSize);
  return (
    <Group justify="space-between" wrap="wrap" gap="sm" data-testid="pagination">
      <Text size="sm" c="dimmed" data-testid="page-range" aria-live="polite">
        Rows {formatCount(first)}–{formatCount(last)} of {formatCount(rowCount)}
      </Text>
      <Group gap="sm" wrap="wrap">
        <NativeSelect
          size="xs"
          aria-label="Rows per page"
          value={String(pageSize)}
          disabled={disabled}
          data={PAGE_SIZES.map((size) => ({ value: String(size), label: `${size} per page` }))}
          onChange={(event) => onPageSize(Number(event.currentTarget.value))}
        />
        <Pagination
          size="sm"
          total={pages}
          value={pageNumber + 1}
          onChange={(page) => onPage(page - 1)}
          disabled={disabled}
          siblings={1}
          boundaries={1}
          getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
          getControlProps={(control) => ({
            'aria-label': { first: 'First page', last: 'Last page', next: 'Next page', previous: 'Previous page' }[control],
          })}
        />
      </Group>
    </Group>
  );
}
