import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { codeErrorMessage } from './second-factor.ts';

/**
 * One code field and its button: the second login step, the enrolment confirmation and the
 * regeneration of recovery codes. Errors are announced (role="alert") and the field keeps focus.
 */
export function MfaCodeForm({
  label,
  description,
  submitLabel,
  allowRecoveryCode,
  onSubmit,
}: {
  label: string;
  description: string;
  submitLabel: string;
  /** The login step also takes a recovery code; enrolment wants the app's 6 digits. */
  allowRecoveryCode: boolean;
  onSubmit: (code: string) => Promise<void>;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = code.trim();
    const digits = value.replace(/\s+/g, '');
    if (value === '') {
      setProblem(allowRecoveryCode ? 'Enter the 6-digit code from your app, or a recovery code.' : 'Enter the 6-digit code from your app.');
      return;
    }
    if (!allowRecoveryCode && !/^\d{6}$/.test(digits)) {
      setProblem('The code has 6 digits.');
      return;
    }
    setProblem(null);
    setError(null);
    setSubmitting(true);
    try {
      await onSubmit(value);
    } catch (failure) {
      setError(codeErrorMessage(failure));
      setCode('');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="mfa-error">
            {error}
          </Alert>
        )}
        <TextInput
          label={label}
          description={description}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={problem}
          autoComplete="one-time-code"
          inputMode={allowRecoveryCode ? 'text' : 'numeric'}
          maxLength={32}
          required
          data-autofocus
          autoFocus
        />
        <Button type="submit" loading={submitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
