import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { authEndpoints } from '@kb/contracts/api';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { AuthCard } from './auth-card.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { TOGGLE_PROPS, confirmProblem, passwordProblem } from './password-form.ts';

export function ChangePasswordPage() {
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { currentPassword: '', newPassword: '', confirm: '' },
    validate: {
      currentPassword: (value) => (value ? null : 'Enter your current password.'),
      newPassword: (value, values) =>
        passwordProblem(value, useSessionStore.getState().username) ??
        (value === values.currentPassword ? 'Choose a password different from the current one.' : null),
      confirm: (value, values) => confirmProblem(values.newPassword, value),
    },
  });
  const mutation = useMutation({
    mutationFn: (values: { currentPassword: string; newPassword: string }) => callApi(authEndpoints.changePassword, { body: values }),
    onSuccess: () => form.reset(),
  });

  return (
    <AuthCard title="Change password" subtitle="Changing your password logs out your other sessions.">
      <form
        onSubmit={form.onSubmit((values) => mutation.mutate({ currentPassword: values.currentPassword, newPassword: values.newPassword }))}
        noValidate
      >
        <Stack gap="sm">
          {mutation.isSuccess && (
            <Alert color="green" role="status" data-testid="change-password-success">
              {mutation.data.message}
            </Alert>
          )}
          {mutation.isError && (
            <Alert color="red" role="alert">
              {errorMessage(mutation.error)}
            </Alert>
          )}
          <PasswordInput
            visibilityToggleButtonProps={TOGGLE_PROPS}
            label="Current password"
            autoComplete="current-password"
            required
            key={form.key('currentPassword')}
            {...form.getInputProps('currentPassword')}
          />
          <NewPasswordFields form={form} field="newPassword" confirmLabel="Confirm new password" />
          <Button type="submit" loading={mutation.isPending}>
            Change password
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
