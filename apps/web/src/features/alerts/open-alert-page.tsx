import { Alert, Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { alertEndpoints } from '@kb/contracts/alerts';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { useSearchSessionStore } from '../../app/stores/search-session-store.ts';
import { newSearchSessionId } from '../../app/session-id.ts';
import { invalidateNotifications } from './alert-queries.ts';

/**
 * /notifications/{id}: the link of an alert (in the app and in its e-mail). Runs the alert's saved
 * search in a new search session holding only the new rows, then shows it at /results.
 */
export function OpenAlertPage() {
  const { id: notificationId } = useParams();
  const navigate = useNavigate();
  const setSearchSessionId = useSearchSessionStore((state) => state.setSearchSessionId);
  const [error, setError] = useState<string | null>(null);
  // One run per visit (React's development double effects would start two sessions).
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const id = Number(notificationId);
    if (!Number.isSafeInteger(id) || id <= 0) {
      setError('This is not a notification link.');
      return;
    }
    const sessionid = newSearchSessionId();
    callApi(alertEndpoints.openAlert, { params: { id }, body: { sessionid } })
      .then(async (opened) => {
        setSearchSessionId(opened.sessionid);
        await invalidateNotifications();
        void navigate('/results', { replace: true });
      })
      .catch((failure: unknown) => setError(errorMessage(failure)));
  }, [notificationId, navigate, setSearchSessionId]);

  if (error) {
    return (
      <Stack gap="md" data-testid="open-alert">
        <Alert color="red" variant="light" role="alert" title="The new rows could not be opened">
          <Text size="sm">{error}</Text>
        </Alert>
        <Anchor component={Link} to="/notifications">
          Back to your notifications
        </Anchor>
      </Stack>
    );
  }
  return (
    <Center py="xl" aria-busy="true" data-testid="open-alert">
      <Stack align="center" gap="xs">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          Finding the new rows of your saved search…
        </Text>
      </Stack>
    </Center>
  );
}
