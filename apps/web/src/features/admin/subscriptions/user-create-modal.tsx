import { Alert, Button, Checkbox, Fieldset, Group, Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { AdminUser, UserCreate } from '@kb/contracts/admin-accounts';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import type { Role } from '@kb/contracts/roles';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { roleLabel } from '../../../app/role-labels.ts';
import { addOneYear, GRANTABLE_ROLES, toDateInput } from './account-format.ts';
import type { UserCreateFormValues } from './account-forms.ts';
import { apiErrorField, toUserCreate, userFieldOf } from './account-forms.ts';
import { useRefreshAccounts } from './account-queries.ts';
import { OrganisationSelect } from './organisation-select.tsx';

const EMPTY: UserCreateFormValues = {
  email: '',
  firstName: '',
  lastName: '',
  organisationId: null,
  invite: true,
  role: '',
  startDate: '',
  endDate: '',
  credits: '',
};

export const GRANTABLE_ROLE_OPTIONS = GRANTABLE_ROLES.map((role) => ({ value: role, label: roleLabel(role) }));

/** A new user: names, organisation, the invitation, and optionally a subscription and opening credits. */
export function UserCreateModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (user: AdminUser) => void;
}) {
  const refresh = useRefreshAccounts();
  const form = useForm<UserCreateFormValues>({ initialValues: EMPTY });
  const create = useMutation({
    mutationFn: (body: UserCreate) => callApi(adminAccountEndpoints.createUser, { body }),
    onSuccess: (user, body) => {
      notifications.show({
        color: 'green',
        title: 'User created',
        message: body.invite
          ? `${user.email} was created; the registration link was e-mailed.`
          : `${user.email} was created. Send the password link from their page when ready.`,
      });
      refresh(user);
      onCreated(user);
      onClose();
    },
    onError: (error) => {
      const field = apiErrorField(error, userFieldOf);
      if (field && field in form.values) form.setFieldError(field, errorMessage(error));
    },
  });
  const { reset: resetMutation } = create;
  const { reset: resetForm } = form;
  useEffect(() => {
    if (opened) {
      resetForm();
      resetMutation();
    }
  }, [opened, resetForm, resetMutation]);

  const submit = form.onSubmit((values) => {
    const checked = toUserCreate(values);
    if (!checked.ok) {
      form.setErrors(checked.errors);
      return;
    }
    create.mutate(checked.value);
  });
  const errorField = apiErrorField(create.error, userFieldOf);
  const dialogError = create.isError && !(errorField && errorField in form.values) ? errorMessage(create.error) : null;
  const roleProps = form.getInputProps('role');

  return (
    <Modal opened={opened} onClose={onClose} title="New user" size="lg" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="E-mail"
            type="email"
            withAsterisk
            maxLength={254}
            data-autofocus
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="First name" withAsterisk maxLength={100} key={form.key('firstName')} {...form.getInputProps('firstName')} />
            <TextInput label="Last name" withAsterisk maxLength={100} key={form.key('lastName')} {...form.getInputProps('lastName')} />
          </SimpleGrid>
          <OrganisationSelect
            label="Organisation"
            placeholder="None"
            data-testid="user-organisation"
            key={form.key('organisationId')}
            {...form.getInputProps('organisationId')}
          />
          <Checkbox
            label="E-mail the registration link now"
            description="The user sets their password through it. Otherwise send it later from the user’s page."
            key={form.key('invite')}
            {...form.getInputProps('invite', { type: 'checkbox' })}
          />
          <Fieldset legend="Subscription (optional)">
            <Stack gap="sm">
              <Select
                label="Role"
                placeholder="No subscription now"
                data={GRANTABLE_ROLE_OPTIONS}
                clearable
                data-testid="user-role"
                key={form.key('role')}
                {...roleProps}
                onChange={(value) => {
                  form.setFieldValue('role', (value ?? '') as Role | '');
                  // A year from today is the usual term: offered, and changed freely.
                  if (value && form.getValues().endDate === '') form.setFieldValue('endDate', addOneYear(toDateInput(new Date())));
                }}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Start date"
                  description="Empty: from now."
                  type="date"
                  key={form.key('startDate')}
                  {...form.getInputProps('startDate')}
                />
                <TextInput label="End date" type="date" key={form.key('endDate')} {...form.getInputProps('endDate')} />
              </SimpleGrid>
            </Stack>
          </Fieldset>
          <TextInput
            label="Opening credits"
            description="Download credits to start with; empty for none."
            inputMode="numeric"
            key={form.key('credits')}
            {...form.getInputProps('credits')}
          />
          {dialogError && (
            <Alert color="red" variant="light" role="alert">
              {dialogError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} data-testid="user-create-submit">
              Create user
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
