import { useRef } from 'react';
import { Alert, Anchor, Button, Skeleton, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { authEndpoints } from '@kb/contracts/api';
import { callApi, errorMessage, isApiRequestError } from '../../app/api-client.ts';
import { endpointQuery } from '../../app/query.ts';
import { AuthCard } from './auth-card.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { confirmProblem, passwordProblem } from './password-form.ts';

export function VerifyAccountPage() {
  const { code = '' } = useParams();
  const info = useQuery({ ...endpointQuery(authEndpoints.verifyInfo, { params: { code } }), retry: false });
  // The form's rules are fixed at its creation; the link's address arrives later.
  const email = useRef<string | null>(null);
  email.current = info.data?.email ?? null;
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { password: '', confirm: '' },
    validate: {
      password: (value) => passwordProblem(value, email.current),
      confirm: (value, values) => confirmProblem(values.password, value),
    },
  });
  const mutation = useMutation({
    mutationFn: (password: string) => callApi(authEndpoints.verifySetPassword, { params: { code }, body: { password } }),
  });

  if (info.isPending) {
    return (
      <AuthCard title="Set your password">
        <Skeleton height={32} />
        <Skeleton height={32} />
      </AuthCard>
    );
  }

  if (info.isError) {
    const invalid = isApiRequestError(info.error) && info.error.status >= 400 && info.error.status < 500;
    return (
      <AuthCard title="Set your password">
        <Alert color="red" role="alert" data-testid="verify-invalid">
          {invalid
            ? 'This link is invalid or has expired. Links can be used once and are valid for a limited time.'
            : errorMessage(info.error)}
        </Alert>
        <Anchor component={Link} to="/forgot-password" size="sm">
          Request a new link
        </Anchor>
      </AuthCard>
    );
  }

  const purpose =
    info.data.purpose === 'register' ? 'Choose a password to activate your account' : 'Choose a new password for your account';
  return (
    <AuthCard title="Set your password" subtitle={`${purpose}: ${info.data.email}`}>
      {mutation.isSuccess ? (
        <Stack gap="sm">
          <Alert color="green" role="status" data-testid="verify-success">
            {mutation.data.message}
          </Alert>
          <Anchor component={Link} to="/login">
            Log in
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit((values) => mutation.mutate(values.password))} noValidate>
          <Stack gap="sm">
            {mutation.isError && (
              <Alert color="red" role="alert">
                {errorMessage(mutation.error)}
              </Alert>
            )}
            <NewPasswordFields form={form} field="password" />
            <Button type="submit" loading={mutation.isPending} fullWidth>
              Set password
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
