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
  const typed = term.trim();
  const [debounced] = useDebouncedValue(typed, LOOKUP_DEBOUNCE_MS);
  // Suggestions are wanted for what is typed now; the request goes out once the typing pauses.
  const wanted = (options.enabled ?? true) && (options.allowEmpty === true || typed.length > 0);
  const enabled = wanted && (options.allowEmpty === true || debounced.length > 0);
  const query = useQuery({
    queryKey: ['lookup', source.key, debounced],
    queryFn: ({ signal }) => source.fetch(debounced, signal),
    enabled,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
  // Still typing (the first keystrokes too, before any request), or the answer is for an older
  // term: loading, never "no matches".
  const settling = wanted && (debounced !== typed || !enabled || query.isFetching || query.isPlaceholderData);
  /** The items are the server's answer for exactly the current text: only then may "no matches" be said. */
  const answered = wanted && !settling && query.isSuccess;
  return {
    items: enabled ? (query.data ?? []) : [],
    loading: settling,
    answered,
    error: enabled && query.isError ? query.error : null,
    term: debounced,
  };
}
