import { Box } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * What a query answered, when that may be its previous answer kept on screen while the next loads
 * (TanStack's `keepPreviousData`, for pages and filters): dimmed until the next arrives, so nobody
 * reads it as the new one, and marked busy while anything is fetched. Render it whatever the state,
 * so the content is not mounted again when the next answer arrives.
 */
export function KeptAnswer({
  query,
  children,
}: {
  query: Pick<UseQueryResult<unknown>, 'isPlaceholderData' | 'isFetching'>;
  children: ReactNode;
}) {
  const previous = query.isPlaceholderData;
  return (
    <Box
      aria-busy={Boolean(previous || query.isFetching)}
      data-previous={previous || undefined}
      style={{ opacity: previous ? 0.6 : 1, transition: 'opacity 150ms' }}
    >
      {children}
    </Box>
  );
}
