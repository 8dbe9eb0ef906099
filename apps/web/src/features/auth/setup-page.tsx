import { useRef, useState } from 'react';
import type { ZodType } from 'zod';
import { Alert, Anchor, Button, Skeleton, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { FirstSuperAdminRequestSchema, setupEndpoints } from '@kb/contracts/setup';
import type { FirstSuperAdminRequest } from '@kb/contracts/setup';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { endpointQuery } from '../../app/query.ts';
import { AuthCard } from './auth-card.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { confirmProblem, passwordProblem } from './password-form.ts';

/**
 * The console's link carries the token in the fragment (`/setup#token=…`), which no server log sees;
 * once read, it leaves the address bar and the history.
 */
function tokenFromLocation(): string {
  const token = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token') ?? '';
  if (token) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return token;
}

/** The contract's own rule for each text field: the message the server would answer. */
function fieldProblem(schema: ZodType, value: string): string | null {
  const parsed = schema.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Check this field.');
}
const FIELDS = FirstSuperAdminRequestSchema.shape;

/**
 * The first super administrator of a server without demo accounts (docs/operations.md "Deploying on
 * a network"): the one-time set-up token from the server console, then the account's details.
 */
export function SetupPage() {
  const status = useQuery({ ...endpointQuery(setupEndpoints.status, {}), retry: false });
  const email = useRef('');
  const [initialToken] = useState(tokenFromLocation);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { token: initialToken, email: '', firstName: '', lastName: '', password: '', confirm: '' },
    validate: {
      token: (value) => fieldProblem(FIELDS.token, value),
      email: (value) => fieldProblem(FIELDS.email, value),
      firstName: (value) => fieldProblem(FIELDS.firstName, value),
      lastName: (value) => fieldProblem(FIELDS.lastName, value),
      password: (value) => passwordProblem(value, email.current),
      confirm: (value, values) => confirmProblem(values.password, value),
    },
    onValuesChange: (values) => {
      email.current = values.email;
    },
  });
  const mutation = useMutation({
    mutationFn: (body: FirstSuperAdminRequest) => callApi(setupEndpoints.createFirstSuperAdmin, { body }),
  });

  if (status.isPending) {
    return (
      <AuthCard title="Set up this server">
        <Skeleton height={32} />
        <Skeleton height={32} />
      </AuthCard>
    );
  }
  if (status.isError) {
    return (
      <AuthCard title="Set up this server">
        <Alert color="red" role="alert">
          {errorMessage(status.error)}
        </Alert>
      </AuthCard>
    );
  }
  if (mutation.isSuccess || !status.data.required) {
    return (
      <AuthCard title="Set up this server">
        <Stack gap="sm">
          <Alert color={mutation.isSuccess ? 'green' : 'blue'} role="status" data-testid="setup-done">
            {mutation.isSuccess ? mutation.data.message : 'This server has a super administrator already: nothing to set up here.'}
          </Alert>
          <Anchor component={Link} to="/login">
            Log in
          </Anchor>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Set up this server"
      subtitle="Create the first super administrator with the one-time set-up token printed on the server console."
    >
      <form
        onSubmit={form.onSubmit(({ token, email: address, firstName, lastName, password }) =>
          mutation.mutate({ token: token.trim(), email: address.trim(), firstName, lastName, password }),
        )}
        noValidate
      >
        <Stack gap="sm">
          {mutation.isError && (
            <Alert color="red" role="alert">
              {errorMessage(mutation.error)}
            </Alert>
          )}
          <TextInput
            label="Set-up token"
            description="Printed at each start while no super administrator can log in; it works once."
            required
            autoComplete="off"
            key={form.key('token')}
            {...form.getInputProps('token')}
          />
          <TextInput label="E-mail" type="email" autoComplete="email" required key={form.key('email')} {...form.getInputProps('email')} />
          <TextInput
            label="First name"
            autoComplete="given-name"
            required
            key={form.key('firstName')}
            {...form.getInputProps('firstName')}
          />
          <TextInput label="Last name" autoComplete="family-name" required key={form.key('lastName')} {...form.getInputProps('lastName')} />
          <NewPasswordFields form={form} field="password" label="Password" />
          <Button type="submit" loading={mutation.isPending} fullWidth>
            Create the super administrator
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
