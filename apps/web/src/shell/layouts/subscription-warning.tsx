import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { authEndpoints } from '@kb/contracts/api';
import { endpointQuery } from '../../app/query.ts';
import { isLoggedIn, useSessionStore } from '../../app/stores/session-store.ts';
import { warningsFor } from '../../app/subscription.ts';

/** Spec §9: a persistent banner when the end date is under 7 days away or 100 or fewer downloads remain. */
export function SubscriptionWarning() {
  const loggedIn = useSessionStore(isLoggedIn);
  const userId = useSessionStore((state) => state.userId);
  const query = useQuery({
    ...endpointQuery(authEndpoints.subscriptionRequired, { body: { id: userId ?? 0 } }),
    enabled: loggedIn && userId !== null,
    staleTime: 5 * 60_000,
  });
  if (!loggedIn || !query.data) return null;
  const warnings = warningsFor(query.data);
  if (warnings.length === 0) return null;
  return (
    <Alert
      data-testid="subscription-warning"
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title="Subscription"
      mb="md"
      role="status"
    >
      <Stack gap={2}>
        {warnings.map((text) => (
          <Text key={text} size="sm">
            {text}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
