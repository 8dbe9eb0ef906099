import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SheetSource } from '@kb/contracts/sheet';
import { sheetEndpoints } from '@kb/contracts/sheet';
import { callApi } from '../../../app/api-client.ts';
import type { SheetConfig } from './sheet-config.ts';
import { sheetRequest } from './sheet-config.ts';

/**
 * The sheet's two calls as queries (POSTs, but they only read): the endpoints measured for the
 * source, and one page. A page on screen stays while the next one (another sort, filter or page)
 * loads, under the grid's loading overlay.
 */
export function useSheetSuggestions(source: SheetSource) {
  return useQuery({
    queryKey: ['sheet', 'endpoints', source],
    queryFn: ({ signal }) => callApi(sheetEndpoints.sheetSuggest, { body: { source } }, { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useSheetPage(source: SheetSource, config: SheetConfig, enabled: boolean) {
  const body = sheetRequest(source, config);
  return useQuery({
    queryKey: ['sheet', 'page', body],
    queryFn: ({ signal }) => callApi(sheetEndpoints.sheetPage, { body }, { signal }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
}
