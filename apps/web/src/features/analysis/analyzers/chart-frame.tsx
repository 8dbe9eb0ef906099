import { Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { EmptyState, QueryErrorAlert } from '../../../app/ui/query-view.tsx';

/** Height of a chart's drawing area. */
export const CHART_PX = 360;

/**
 * One card of the board: title, its pickers, then the chart (a skeleton while it loads, the
 * server's message when it fails, an empty state when the tab has nothing to chart).
 */
export function ChartFrame<T>({
  title,
  testId,
  controls,
  query,
  isEmpty,
  empty,
  note,
  children,
}: {
  title: string;
  testId: string;
  controls?: ReactNode;
  query: UseQueryResult<T>;
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  /** A line under the chart (sampling, rows left out). */
  note?: (data: T) => ReactNode;
  children: (data: T) => ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
          <Title order={4}>{title}</Title>
          {controls}
        </Group>
        {query.isPending ? (
          <Skeleton height={CHART_PX} radius="sm" aria-label={`Loading ${title.toLowerCase()}`} />
        ) : query.isError ? (
          <QueryErrorAlert error={query.error} onRetry={() => void query.refetch()} />
        ) : isEmpty(query.data) ? (
          <EmptyState>{empty}</EmptyState>
        ) : (
          <>
            {children(query.data)}
            {note && (
              <Text size="sm" c="dimmed" data-testid={`${testId}-note`}>
                {note(query.data)}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
