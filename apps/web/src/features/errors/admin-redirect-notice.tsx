import { Alert, CloseButton, Group, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { FROM_PARAM, turnedAwayFrom } from '../../app/route-guard.ts';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { adminRedirectNotice } from './access-denied.ts';

/**
 * On /dashboard after the admin guard sent an administrator there from an admin page of another
 * kind: says why, so the dashboard does not look like a broken link. Closing it drops the parameter.
 */
export function AdminRedirectNotice() {
  const [params, setParams] = useSearchParams();
  const current = useSessionStore((state) => state.currentUserRole);
  const from = params.get(FROM_PARAM);
  const route = turnedAwayFrom(from);
  if (!route || !from) return null;
  const close = () =>
    setParams(
      (currentParams) => {
        const next = new URLSearchParams(currentParams);
        next.delete(FROM_PARAM);
        return next;
      },
      { replace: true },
    );
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} data-testid="admin-redirect-notice" mb="md">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm">{adminRedirectNotice(route, current)}</Text>
        <CloseButton size="sm" aria-label="Close the notice" onClick={close} />
      </Group>
    </Alert>
  );
}
