import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { authEndpoints } from '@kb/contracts/api';
import type { RegisterRequest } from '@kb/contracts/auth';
import { RegisterRequestSchema } from '@kb/contracts/auth';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { AuthCard } from './auth-card.tsx';

type RegisterValues = Required<RegisterRequest>;

export function RegisterPage() {
  const form = useForm<RegisterValues>({
    mode: 'uncontrolled',
    initialValues: { firstName: '', lastName: '', email: '', organisation: '' },
    validate: schemaResolver(RegisterRequestSchema, { sync: true }),
  });
  const mutation = useMutation({
    mutationFn: (values: RegisterValues) =>
      callApi(authEndpoints.register, {
        body: { ...values, email: values.email.trim(), organisation: values.organisation.trim() || undefined },
      }),
  });

  return (
    <AuthCard
      title="Register"
      subtitle="We e-mail you a link to set your password. Your subscription is activated by your account manager."
    >
      {mutation.isSuccess ? (
        <Stack gap="sm">
          <Alert color="green" role="status" data-testid="register-success">
            {mutation.data.message}
          </Alert>
          <Anchor component={Link} to="/login" size="sm">
            Back to log in
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
          <Stack gap="sm">
            {mutation.isError && (
              <Alert color="red" role="alert">
                {errorMessage(mutation.error)}
              </Alert>
            )}
            <Group grow align="flex-start">
              <TextInput
                label="First name"
                autoComplete="given-name"
                required
                key={form.key('firstName')}
                {...form.getInputProps('firstName')}
              />
              <TextInput
                label="Last name"
                autoComplete="family-name"
                required
                key={form.key('lastName')}
                {...form.getInputProps('lastName')}
              />
            </Group>
            <TextInput label="E-mail" type="email" autoComplete="email" required key={form.key('email')} {...form.getInputProps('email')} />
            <TextInput
              label="Organisation"
              autoComplete="organization"
              key={form.key('organisation')}
              {...form.getInputProps('organisation')}
            />
            <Button type="submit" loading={mutation.isPending} fullWidth mt="xs">
              Register
            </Button>
            <Text size="sm">
              Already registered?{' '}
              <Anchor component={Link} to="/login">
                Log in
              </Anchor>
            </Text>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
