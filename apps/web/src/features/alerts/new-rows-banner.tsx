import { Alert, Text } from '@mantine/core';
import { IconBellRinging } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { alertEndpoints } from '@kb/contracts/alerts';
import { endpointQuery } from '../../app/query.ts';
import { formatDateTime } from '../../app/format/display-format.ts';

/**
 * Says that the results hold only an alert's new rows (a session opened from a notification), so
 * nobody mistakes them for all the rows of the saved search. Nothing for an ordinary search.
 */
export function NewRowsBanner({ sessionId }: { sessionId: string }) {
  // A session's window never changes: asked once per session.
  const query = useQuery({ ...endpointQuery(alertEndpoints.sessionWindow, { params: { sessionid: sessionId } }), staleTime: Infinity });
  const window = query.data?.window;
  if (!window) return null;
  const when = window.loadFinishedAt ? ` (${formatDateTime(window.loadFinishedAt)})` : '';
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconBellRinging size={18} />}
      title={`New in ${window.loadLabel}${when}`}
      data-testid="new-rows-banner"
    >
      <Text size="sm">
        These results hold only the rows that data update brought in for your saved search. Run the search again from the search page to see
        all of its rows.
      </Text>
    </Alert>
  );
}
