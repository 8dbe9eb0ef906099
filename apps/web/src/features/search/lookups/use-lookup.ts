import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LookupSource } from './lookup-sources.ts';

/** Pause after the last keystroke before asking the server. */
export const LOOKUP_DEBOUNCE_MS = 200;

/**
 * Suggestions for what the user is typing. TanStack Query passes an AbortSignal: a keystroke that
 * changes the term drops the older request, so suggestions never arrive out of order.
 */
export function useLookup(source: LookupSource, term: string, options: { enabled?: boolean; allowEmpty?: boolean } = {}) {
  const [debounced] = useDebouncedValue(term.trim(), LOOKUP_DEBOUNCE_MS);
  const enabled = (options.enabled ?? true) && (options.allowEmpty === true || debounced.length > 0);
  const query = useQuery({
    queryKey: ['lookup', source.key, debounced],
    queryFn: ({ signal }) => source.fetch(debounced, signal),
    enabled,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
  // Still typing, or the answer is for an older term: show the loader rather than stale matches as final.
  const settling = enabled && (debounced !== term.trim() || query.isFetching);
  return { items: enabled ? (query.data ?? []) : [], loading: settling, error: enabled && query.isError ? query.error : null, term: debounced };
}
