import { Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { searchEndpoints } from '@kb/contracts/search-api';
import { endpointQuery } from '../../../app/query.ts';
import { useSearchSessionStore } from '../../../app/stores/search-session-store.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { SEARCH } from '../../../app/format/nouns.ts';

/** How often a running search is asked how far it got. */
const POLL_MS = 500;

/**
 * The progress of the running search (long structure searches): structures searched, hits so
 * far, and the index loading after a restart; while the server is busy, the search's place in line.
 * Silent otherwise.
 */
export function SearchProgress() {
  const sessionid = useSearchSessionStore((state) => state.searchSessionId);
  const progress = useQuery({
    ...endpointQuery(searchEndpoints.searchProgress, { params: { sessionid: sessionid ?? '' } }),
    enabled: Boolean(sessionid),
    refetchInterval: POLL_MS,
    staleTime: 0,
    retry: false,
  });
  const data = progress.data;
  if (data?.status === 'running' && data.phase === 'queued') {
    const ahead = data.queuePosition ?? 0;
    const label =
      ahead === 0
        ? 'Waiting for a free search slot: yours is next'
        : `Waiting for a free search slot: ${countNoun(ahead, SEARCH)} ahead of yours`;
    return (
      <Stack gap={2} mb="xs" data-testid="search-progress">
        <Progress value={100} size="sm" aria-label={label} animated striped color="gray" />
        <Text size="xs" c="dimmed">
          {label}
        </Text>
      </Stack>
    );
  }
  if (!data || data.status !== 'running' || (data.phase !== 'structure' && data.phase !== 'index') || data.total === 0) return null;
  const percent = Math.min(100, (100 * data.searched) / data.total);
  const label =
    data.phase === 'index'
      ? `Loading the structure index: ${formatCount(data.searched)} of ${formatCount(data.total)} structures`
      : `Searching structures: ${formatCount(data.searched)} of ${formatCount(data.total)} · ${formatCount(data.hits)} hits so far`;
  return (
    <Stack gap={2} mb="xs" data-testid="search-progress">
      <Progress value={percent} size="sm" aria-label={label} animated striped />
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}
