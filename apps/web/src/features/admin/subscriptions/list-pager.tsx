import { Group, Pagination, Text } from '@mantine/core';
import { formatCount } from '../../../app/format/count-format.ts';

/** "51–100 of 240" and the page buttons of a list paged on the server. */
export function ListPager({
  page,
  pageSize,
  total,
  onPage,
  label,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between" mt="sm" wrap="wrap">
      <Text size="sm" c="dimmed" aria-live="polite">
        {total === 0 ? `No ${label}` : `${formatCount(first)}–${formatCount(last)} of ${formatCount(total)} ${label}`}
      </Text>
      {pages > 1 && <Pagination total={pages} value={page} onChange={onPage} size="sm" aria-label={`Pages of ${label}`} />}
    </Group>
  );
}
