import { Alert, Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import type { AdminUser, UserUpdate } from '@kb/contracts/admin-accounts';
import { adminAccountEndpoints, UserUpdateSchema } from '@kb/contracts/admin-accounts';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { apiErrorField, schemaErrors } from './account-forms.ts';
import { useRefreshAccounts } from './account-queries.ts';
import { OrganisationSelect } from './organisation-select.tsx';

interface DetailValues {
  firstName: string;
  lastName: string;
  organisationId: string | null;
}

const valuesOf = (user: AdminUser): DetailValues => ({
  firstName: user.firstName,
  lastName: user.lastName,
  organisationId: user.organisationId === null ? null : String(user.organisationId),
});

/** A user's names and organisation. The parent keys it by user, so another user starts a fresh form. */
export function UserDetailsForm({ user }: { user: AdminUser }) {
  const refresh = useRefreshAccounts();
  const form = useForm<DetailValues>({ initialValues: valuesOf(user) });
  const save = useMutation({
    mutationFn: (body: UserUpdate) => callApi(adminAccountEndpoints.updateUser, { params: { userId: user.userId }, body }),
    onSuccess: (saved) => {
      notifications.show({ color: 'green', message: `${saved.email} was saved.` });
      form.resetDirty(valuesOf(saved));
      refresh(saved);
    },
    onError: (error) => {
      const field = apiErrorField(error);
      if (field && field in form.values) form.setFieldError(field, errorMessage(error));
    },
  });
  const submit = form.onSubmit((values) => {
    const body = {
      firstName: values.firstName,
      lastName: values.lastName,
      organisationId: values.organisationId ? Number(values.organisationId) : null,
    };
    const parsed = UserUpdateSchema.safeParse(body);
    if (!parsed.success) {
      // The contract's own "too short" message is generic: name the field.
      const errors = schemaErrors(parsed.error);
      if (errors.firstName) errors.firstName = 'Enter a first name.';
      if (errors.lastName) errors.lastName = 'Enter a last name.';
      form.setErrors(errors);
      return;
    }
    save.mutate(parsed.data);
  });
  const errorField = apiErrorField(save.error);
  return (
    <form onSubmit={submit} noValidate aria-label="User details">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="First name" withAsterisk maxLength={100} key={form.key('firstName')} {...form.getInputProps('firstName')} />
          <TextInput label="Last name" withAsterisk maxLength={100} key={form.key('lastName')} {...form.getInputProps('lastName')} />
        </SimpleGrid>
        <OrganisationSelect
          label="Organisation"
          placeholder="None"
          initialName={user.organisationName}
          key={form.key('organisationId')}
          {...form.getInputProps('organisationId')}
        />
        {save.isError && !(errorField && errorField in form.values) && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={save.isPending} disabled={!form.isDirty()}>
            Save details
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
