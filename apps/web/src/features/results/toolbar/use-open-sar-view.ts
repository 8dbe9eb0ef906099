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
 * the analyzers' brushed rows. The answer of setSarData is the session's new SAR data: it replaces
 * the cached `sarData`, so the SAR view shows these rows at once (not the previous set until the
 * cache goes stale). A set the server refuses (over the SAR view's limit) is told with its message.
 */
export function useOpenSarView({ scope, sessionId, tab }: { scope: ResultsScope; sessionId: string; tab: SarSourceTab }) {
  const navigate = useNavigate();
  const [opening, setOpening] = useState(false);
  const open = async (rows: Pick<SetSarDataRequest, 'selection' | 'strIdList'>) => {
    setOpening(true);
    try {
      const data = await callApi(sarEndpoints.setSarData, { body: { sessionid: sessionId, tab, ...rows } });
      queryClient.setQueryData(endpointKey(sarEndpoints.sarData, { params: { sessionid: sessionId } }), data);
      navigate(`/sarview/${tab}${scope === 'selection' ? '?from=selection' : ''}`);
    } catch (error) {
      notifications.show({ color: 'red', title: 'The SAR view could not open these rows', message: errorMessage(error), autoClose: false });
    } finally {
      setOpening(false);
    }
  };
  return { opening, open };
}
