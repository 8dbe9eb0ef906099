import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { chartEndpoints } from '@kb/contracts/charts';
import type { ChartType } from '@kb/contracts/charts';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { endpointQuery } from '../../../app/query.ts';
import { valueSearchInput } from './chart-queries.ts';

/** Values a value search lists (the server gives up to 500). */
const VALUE_SEARCH_MAX = 100;
const TYPING_PAUSE_MS = 300;

/**
 * The left-hand filter of a List chart: the chart's values whose label contains the text, beyond
 * the top values the chart shows. Asks once typing pauses; each new text cancels the request of
 * the previous one. Spec §8: a failed call answers its error (shown under the box).
 */
export function useValueSearch(sessionid: string, tab: ResultTabKey, chartType: ChartType, chartKey: string) {
  const [text, setText] = useState('');
  const [search] = useDebouncedValue(text.trim(), TYPING_PAUSE_MS);
  const query = useQuery({
    ...endpointQuery(chartEndpoints.leftHandFilter, valueSearchInput(sessionid, tab, chartType, chartKey, search, VALUE_SEARCH_MAX)),
    enabled: search.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const active = text.trim().length > 0;
  return { text, setText, active, query: active ? query : null, searching: active && (query.isFetching || text.trim() !== search) };
}
