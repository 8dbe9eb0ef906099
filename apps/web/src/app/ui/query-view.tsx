import { Alert, Button, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '../api-client.ts';
import { KeptAnswer } from './kept-answer.tsx';

/**
 * Loading, error and empty states of a query, then its content. `keepsPrevious`: the query keeps its
 * previous answer on screen while the next loads (TanStack's `keepPreviousData`, for pages and
 * filters); the content is then shown as a `KeptAnswer` (dimmed and busy until the next arrives).
 */
export function QueryView<T>({
  query,
  isEmpty,
  empty,
  skeletonRows = 4,
  keepsPrevious = false,
  children,
}: {
  query: UseQueryResult<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  skeletonRows?: number;
  keepsPrevious?: boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label="Loading">
        {Array.from({ length: skeletonRows }, (_, index) => (
          <Skeleton key={index} height={28} radius="sm" />
        ))}
      </Stack>
    );
  }
  if (query.isError) return <QueryErrorAlert error={query.error} onRetry={() => void query.refetch()} />;
  const content = isEmpty?.(query.data) ? <EmptyState>{empty ?? 'Nothing to show yet.'}</EmptyState> : children(query.data);
  return keepsPrevious ? <KeptAnswer query={query}>{content}</KeptAnswer> : <>{content}</>;
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Text c="dimmed" size="sm" ta="center" py="xl" data-testid="empty-state">
      {children}
    </Text>
  );
}

/** A failed load: what went wrong, and a retry. */
export function QueryErrorAlert({ error, onRetry, title = 'Could not load' }: { error: unknown; onRetry: () => void; title?: string }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={title} role="alert">
      <Text size="sm" mb="xs">
        {errorMessage(error)}
      </Text>
      <Button size="xs" variant="light" color="red" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}
