import { Badge, Group, Text } from '@mantine/core';
import type { AdminSubscription, AdminUser } from '@kb/contracts/admin-accounts';
import { roleLabel } from '../../../app/role-labels.ts';
import { STATE_BADGE, subscriptionTone, TONE_COLOR, toneText } from './account-format.ts';

/** A subscription as a badge: the role's name and how its end stands, coloured by how near the end is. */
function SubscriptionBadge({ subscription }: { subscription: AdminSubscription }) {
  const tone = subscriptionTone(subscription);
  return (
    <Badge
      variant="light"
      color={TONE_COLOR[tone]}
      tt="none"
      // The label keeps its full width: the column grows or the group wraps, no date is cut off.
      style={{ flexShrink: 0 }}
      styles={{ label: { overflow: 'visible' } }}
      title={`${roleLabel(subscription.roleName)}, contract ${subscription.contractId || '—'}${subscription.havingFlatFileAccess ? ', flat-file access' : ''}`}
      data-testid="subscription-badge"
      data-tone={tone}
    >
      {roleLabel(subscription.roleName)} · {toneText(subscription)}
    </Badge>
  );
}

/** Every subscription of a user, or "none". */
export function SubscriptionBadges({ subscriptions }: { subscriptions: readonly AdminSubscription[] }) {
  if (subscriptions.length === 0) {
    return (
      <Text size="xs" c="dimmed">
        none
      </Text>
    );
  }
  return (
    <Group gap={4}>
      {subscriptions.map((subscription) => (
        <SubscriptionBadge key={subscription.id} subscription={subscription} />
      ))}
    </Group>
  );
}

/** Active, invited (no password yet) or deactivated; a lock-out shows beside it. */
export function AccountStateBadges({ user }: { user: Pick<AdminUser, 'state' | 'lockedOut'> }) {
  const state = STATE_BADGE[user.state];
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={state.color} variant="light" data-testid="account-state">
        {state.label}
      </Badge>
      {user.lockedOut && (
        <Badge color="red" variant="filled" title="The login limits refuse this address for now" data-testid="locked-out">
          Locked out
        </Badge>
      )}
    </Group>
  );
}
