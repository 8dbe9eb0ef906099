import { Alert, Button, Checkbox, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { NestedModal } from './nested-dialogs.tsx';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { AdminSubscription, AdminUser, SubscriptionGrant } from '@kb/contracts/admin-accounts';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import type { Role } from '@kb/contracts/roles';
import { FLAT_FILE_CAPABLE_ROLES } from '@kb/contracts/roles';
import { notifications } from '@mantine/notifications';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { roleLabel } from '../../../app/role-labels.ts';
import { addOneYear, endDateInput, formatDay, formatLastDay, toDateInput } from './account-format.ts';
import type { GrantFormValues } from './account-forms.ts';
import { apiErrorField, extendDateError, toSubscriptionGrant } from './account-forms.ts';
import { useRefreshAccounts } from './account-queries.ts';
import { GRANTABLE_ROLE_OPTIONS } from './user-create-modal.tsx';

const EMPTY_GRANT: GrantFormValues = { role: '', startDate: '', endDate: '', contractId: '', havingFlatFileAccess: false };

/** Grants a subscription: role, start (empty: now), end, contract and flat-file access. */
export function GrantSubscriptionModal({ user, opened, onClose }: { user: AdminUser; opened: boolean; onClose: () => void }) {
  const refresh = useRefreshAccounts();
  const form = useForm<GrantFormValues>({ initialValues: EMPTY_GRANT });
  const grant = useMutation({
    mutationFn: (body: SubscriptionGrant) => callApi(adminAccountEndpoints.grantSubscription, { params: { userId: user.userId }, body }),
    onSuccess: (saved, body) => {
      notifications.show({
        color: 'green',
        message: `${roleLabel(body.role)} granted to ${saved.email} until ${formatDay(body.endDate)}.`,
      });
      refresh(saved);
      onClose();
    },
    onError: (error) => {
      const field = apiErrorField(error);
      if (field && field in form.values) form.setFieldError(field, errorMessage(error));
    },
  });
  const { reset: resetMutation } = grant;
  const { reset: resetForm } = form;
  useEffect(() => {
    if (opened) {
      resetForm();
      resetMutation();
    }
  }, [opened, resetForm, resetMutation]);
  const submit = form.onSubmit((values) => {
    const checked = toSubscriptionGrant(values);
    if (!checked.ok) form.setErrors(checked.errors);
    else grant.mutate(checked.value);
  });
  const errorField = apiErrorField(grant.error);
  const role = form.getValues().role;
  const flatFileCapable = role !== '' && FLAT_FILE_CAPABLE_ROLES.includes(role);
  return (
    <NestedModal opened={opened} onClose={onClose} title={`Grant a subscription to ${user.email}`} centered zIndex={300}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Select
            label="Role"
            withAsterisk
            data={GRANTABLE_ROLE_OPTIONS}
            data-autofocus
            key={form.key('role')}
            {...form.getInputProps('role')}
            onChange={(value) => {
              form.setFieldValue('role', (value ?? '') as Role | '');
              if (value && form.getValues().endDate === '') form.setFieldValue('endDate', addOneYear(toDateInput(new Date())));
              if (!value || !FLAT_FILE_CAPABLE_ROLES.includes(value as Role)) form.setFieldValue('havingFlatFileAccess', false);
            }}
          />
          <SimpleGrid cols={2}>
            <TextInput
              label="Start date"
              description="Empty: from now."
              type="date"
              key={form.key('startDate')}
              {...form.getInputProps('startDate')}
            />
            <TextInput label="End date" withAsterisk type="date" key={form.key('endDate')} {...form.getInputProps('endDate')} />
          </SimpleGrid>
          <TextInput
            label="Contract"
            description="Optional reference of the contract."
            maxLength={100}
            key={form.key('contractId')}
            {...form.getInputProps('contractId')}
          />
          <Checkbox
            label="Flat-file access"
            disabled={!flatFileCapable}
            description={flatFileCapable ? undefined : 'Only the user roles may carry flat-file access.'}
            key={form.key('havingFlatFileAccess')}
            {...form.getInputProps('havingFlatFileAccess', { type: 'checkbox' })}
          />
          {grant.isError && !(errorField && errorField in form.values) && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(grant.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={grant.isPending} data-testid="grant-submit">
              Grant
            </Button>
          </Group>
        </Stack>
      </form>
    </NestedModal>
  );
}

/** Extend: a new end date picked by the administrator. */
export function ExtendSubscriptionModal({ subscription, onClose }: { subscription: AdminSubscription | null; onClose: () => void }) {
  const refresh = useRefreshAccounts();
  const [endDate, setEndDate] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const extend = useMutation({
    mutationFn: ({ id, endDate: day }: { id: number; endDate: string }) =>
      callApi(adminAccountEndpoints.updateSubscription, { params: { subscriptionId: id }, body: { endDate: day } }),
    onSuccess: (saved, { endDate: day }) => {
      notifications.show({ color: 'green', message: `The subscription of ${saved.email} now ends on ${formatDay(day)}.` });
      refresh(saved);
      onClose();
    },
  });
  const { reset } = extend;
  useEffect(() => {
    if (subscription) {
      setEndDate(endDateInput(subscription.endDate));
      setProblem(null);
      reset();
    }
  }, [subscription, reset]);
  if (!subscription) return null;
  return (
    <NestedModal opened onClose={onClose} title={`Extend ${roleLabel(subscription.roleName)}`} centered zIndex={300}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const error = extendDateError(endDate, toDateInput(subscription.startDate), toDateInput(new Date()));
          setProblem(error);
          if (!error) extend.mutate({ id: subscription.id, endDate });
        }}
      >
        <Stack gap="sm">
          <Text size="sm">Its last day is {formatLastDay(subscription.endDate)} now.</Text>
          <TextInput
            label="New end date"
            type="date"
            withAsterisk
            data-autofocus
            value={endDate}
            onChange={(event) => setEndDate(event.currentTarget.value)}
            error={problem ?? (extend.isError ? errorMessage(extend.error) : undefined)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={extend.isPending} data-testid="extend-submit">
              Set end date
            </Button>
          </Group>
        </Stack>
      </form>
    </NestedModal>
  );
}
