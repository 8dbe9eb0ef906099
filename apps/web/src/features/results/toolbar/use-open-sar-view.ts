import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { sarEndpoints } from '@kb/contracts/sar';
import type { SarSourceTab, SetSarDataRequest } from '@kb/contracts/sar';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { endpointKey, queryClient } from '../../../app/query.ts';
import type { ResultsScope } from '../results-store.ts';

/**
 * "Set the SAR data, then open the SAR view" — the one way in, from the results toolbar and from
 * the analyzers' brushed rows (a collection's page uses `setSarRows` after its search ran). The answer of setSarData is the session's new SAR data: it replaces
 * the cached `sarData`, so the SAR view shows these rows at once (not the previous set until the
 * cache goes stale). A set the server refuses (over the SAR view's limit) is told with its message.
 */
export function useOpenSarView({ scope, sessionId, tab }: { scope: ResultsScope; sessionId: string; tab: SarSourceTab }) {
  const navigate = useNavigate();
  const [opening, setOpening] = useState(false);
  const open = async (rows: Pick<SetSarDataRequest, 'selection' | 'strIdList'>) => {
    setOpening(true);
    try {
      await setSarRows(sessionId, tab, rows);
      navigate(`/sarview/${tab}${scope === 'selection' ? '?from=selection' : ''}`);
    } catch (error) {
      notifications.show({ color: 'red', title: 'The SAR view could not open these rows', message: errorMessage(error), autoClose: false });
    } finally {
      setOpening(false);
    }
  };
  return { opening, open };
}

/**
 * Puts rows of a session's tab into its SAR view (`selection: null`: every row of the tab as
 * filtered) and caches the answer as the session's SAR data, so the SAR view opens on them at once.
 * Throws the server's refusal (over the SAR view's limit) for the caller to show.
 */
export async function setSarRows(
  sessionId: string,
  tab: SarSourceTab,
  rows: Pick<SetSarDataRequest, 'selection' | 'strIdList'>,
): Promise<void> {
  const data = await callApi(sarEndpoints.setSarData, { body: { sessionid: sessionId, tab, ...rows } });
  queryClient.setQueryData(endpointKey(sarEndpoints.sarData, { params: { sessionid: sessionId } }), data);
}
