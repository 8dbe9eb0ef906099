import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { authEndpoints } from '@kb/contracts/api';
import type { ForgotPasswordRequest } from '@kb/contracts/auth';
import { ForgotPasswordRequestSchema } from '@kb/contracts/auth';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { AuthCard } from './auth-card.tsx';

export function ForgotPasswordPage() {
  const form = useForm<ForgotPasswordRequest>({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: schemaResolver(ForgotPasswordRequestSchema, { sync: true }),
  });
  const mutation = useMutation({
    mutationFn: (values: ForgotPasswordRequest) => callApi(authEndpoints.forgotPassword, { body: { email: values.email.trim() } }),
  });

  return (
    <AuthCard title="Forgot password" subtitle="Enter the e-mail address of your account and we send you a link to set a new password.">
      {mutation.isSuccess ? (
        <Alert color="green" role="status" data-testid="forgot-success">
          {mutation.data.message}
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
          <Stack gap="sm">
            {mutation.isError && (
              <Alert color="red" role="alert">
                {errorMessage(mutation.error)}
              </Alert>
            )}
            <TextInput label="E-mail" type="email" autoComplete="email" required key={form.key('email')} {...form.getInputProps('email')} />
            <Button type="submit" loading={mutation.isPending} fullWidth>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/login" size="sm">
        Back to log in
      </Anchor>
    </AuthCard>
  );
}
