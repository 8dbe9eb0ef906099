import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { LoginRequest } from '@kb/contracts/auth';
import { LoginRequestSchema } from '@kb/contracts/auth';
import { postLoginTarget } from '../../app/route-guard.ts';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { TOGGLE_PROPS } from './password-form.ts';
import { AuthCard } from './auth-card.tsx';
import { logIn, loginErrorMessage } from './auth-service.ts';

export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<LoginRequest>({
    mode: 'uncontrolled',
    initialValues: { username: '', password: '' },
    validate: schemaResolver(LoginRequestSchema, { sync: true }),
  });

  const submit = async (values: LoginRequest) => {
    setError(null);
    setSubmitting(true);
    try {
      await logIn({ username: values.username.trim(), password: values.password });
      const role = useSessionStore.getState().currentUserRole;
      await navigate(postLoginTarget(params.get('redirect'), role), { replace: true });
    } catch (failure) {
      setError(loginErrorMessage(failure));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthCard title="Log in" subtitle="Use the e-mail address of your KB Search subscription.">
      <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
        <Stack gap="sm">
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="login-error">
              {error}
            </Alert>
          )}
          <TextInput label="E-mail" type="email" autoComplete="username" required key={form.key('username')} {...form.getInputProps('username')} />
          <PasswordInput visibilityToggleButtonProps={TOGGLE_PROPS} label="Password" autoComplete="current-password" required key={form.key('password')} {...form.getInputProps('password')} />
          <Button type="submit" loading={submitting} fullWidth mt="xs">
            Log in
          </Button>
          <Group justify="space-between">
            <Anchor component={Link} to="/forgot-password" size="sm">
              Forgot password?
            </Anchor>
            <Anchor component={Link} to="/register" size="sm">
              Register
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
