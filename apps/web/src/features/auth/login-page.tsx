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
import { finishLogin, logIn, logOut, loginErrorMessage } from './auth-service.ts';
import { MfaCodeForm } from './mfa-code-form.tsx';
import { MfaEnrolment } from './mfa-enrolment.tsx';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';
import { verifySecondFactor } from './second-factor.ts';

/** Where the login stands: the password, then for an account with an admin role its code or the set-up of an authenticator. */
type LoginStep = { kind: 'password' } | { kind: 'code' } | { kind: 'enrol' } | { kind: 'recovery-codes'; codes: string[] };

export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  /** After the password, an admin's second step: the code of the authenticator, or its first set-up. */
  const [step, setStep] = useState<LoginStep>({ kind: 'password' });
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
      const secondFactor = useSessionStore.getState().secondFactor;
      if (secondFactor === 'code_required' || secondFactor === 'enrolment_required') {
        setStep({ kind: secondFactor === 'code_required' ? 'code' : 'enrol' });
        return;
      }
      await goOn();
    } catch (failure) {
      setError(loginErrorMessage(failure));
    } finally {
      setSubmitting(false);
    }
  };

  const cancel = (
    <Anchor component="button" type="button" size="sm" onClick={() => void logOut()}>
      Cancel and log out
    </Anchor>
  );

  if (step.kind === 'code') {
    return (
      <AuthCard title="Two-step login" subtitle="Your account has administrator roles: confirm it is you with your authenticator app.">
        <MfaCodeForm
          label="Code from your authenticator app"
          description="Open your authenticator app and enter the 6-digit code for KB Search, or one of your recovery codes."
          submitLabel="Verify"
          allowRecoveryCode
          onSubmit={async (code) => {
            await verifySecondFactor(code);
            await finishLogin();
            await goOn();
          }}
        />
        {cancel}
      </AuthCard>
    );
  }

  if (step.kind === 'enrol' || step.kind === 'recovery-codes') {
    return (
      <AuthCard
        title="Two-step login"
        subtitle="Your account has administrator roles: set up an authenticator app on your phone to finish logging in."
      >
        {step.kind === 'enrol' ? (
          <MfaEnrolment onConfirmed={(codes) => setStep({ kind: 'recovery-codes', codes })} />
        ) : (
          <RecoveryCodesPanel
            codes={step.codes}
            doneLabel="I have saved them"
            onDone={() => {
              void finishLogin()
                .then(goOn)
                .catch((failure: unknown) => {
                  setStep({ kind: 'password' });
                  setError(loginErrorMessage(failure));
                });
            }}
          />
        )}
        {step.kind === 'enrol' && cancel}
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
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="username"
            required
            key={form.key('username')}
            {...form.getInputProps('username')}
          />
          <PasswordInput
            visibilityToggleButtonProps={TOGGLE_PROPS}
            label="Password"
            autoComplete="current-password"
            required
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
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
