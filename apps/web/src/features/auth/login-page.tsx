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
import { logIn, logOut, loginErrorMessage } from './auth-service.ts';
import { MfaCodeForm } from './mfa-code-form.tsx';
import { verifySecondFactor } from './second-factor.ts';

export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  /** The password was right and the account has an authenticator: the second step asks for its code. */
  const [codeStep, setCodeStep] = useState(false);
  const form = useForm<LoginRequest>({
    mode: 'uncontrolled',
    initialValues: { username: '', password: '' },
    validate: schemaResolver(LoginRequestSchema, { sync: true }),
  });

  const goOn = async () => {
    const role = useSessionStore.getState().currentUserRole;
    await navigate(postLoginTarget(params.get('redirect'), role), { replace: true });
  };

  const submit = async (values: LoginRequest) => {
    setError(null);
    setSubmitting(true);
    try {
      await logIn({ username: values.username.trim(), password: values.password });
      if (useSessionStore.getState().secondFactor === 'code_required') {
        setCodeStep(true);
        return;
      }
      await goOn();
    } catch (failure) {
      setError(loginErrorMessage(failure));
    } finally {
      setSubmitting(false);
    }
  };

  if (codeStep) {
    return (
      <AuthCard title="Two-step login" subtitle="Your account has administrator pages: confirm it is you with your authenticator app.">
        <MfaCodeForm
          label="Code from your authenticator app"
          description="Open your authenticator app and enter the 6-digit code for KB Search, or one of your recovery codes."
          submitLabel="Verify"
          allowRecoveryCode
          onSubmit={async (code) => {
            await verifySecondFactor(code);
            await goOn();
          }}
        />
        <Anchor component="button" type="button" size="sm" onClick={() => void logOut()}>
          Cancel and log out
        </Anchor>
      </AuthCard>
    );
  }

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
