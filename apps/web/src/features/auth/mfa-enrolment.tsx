import { Alert, Anchor, Button, Code, Image, List, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { mfaEndpoints } from '@kb/contracts/api';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { MfaCodeForm } from './mfa-code-form.tsx';
import { confirmEnrolment } from './second-factor.ts';

/** The secret as people type it: groups of four. */
function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

/**
 * Setting up an authenticator app: a new key as a QR code and as text (for those who cannot scan),
 * then the first code confirms it and the recovery codes are answered (once) to `onConfirmed`.
 * Used by the login page (an admin's first login) and by /account/mfa (after a reset).
 */
export function MfaEnrolment({ onConfirmed }: { onConfirmed: (codes: string[]) => void }) {
  const start = useMutation({ mutationFn: () => callApi(mfaEndpoints.enrolStart, {}) });

  if (!start.data) {
    return (
      <Stack gap="sm">
        <Text>
          Set up an authenticator app (for example Google Authenticator, Microsoft Authenticator or 1Password) before you use administrator
          pages. You need your phone for the next steps.
        </Text>
        {start.isError && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
            {errorMessage(start.error)}
          </Alert>
        )}
        <Button onClick={() => start.mutate()} loading={start.isPending}>
          Set up my authenticator app
        </Button>
      </Stack>
    );
  }

  const enrolment = start.data;
  return (
    <Stack gap="md" data-testid="mfa-enrolment">
      <List type="ordered" spacing="sm">
        <List.Item>
          <Text>Scan this QR code with your authenticator app:</Text>
          <Image src={enrolment.qrDataUrl} alt="QR code to add KB Search to your authenticator app" w={220} h={220} mt="xs" />
        </List.Item>
        <List.Item>
          <Text>Or, if you cannot scan, type this key into the app (time-based, 6 digits):</Text>
          <Code block fz="md" mt="xs" data-testid="mfa-secret" aria-label="Key to type into your authenticator app">
            {groupedSecret(enrolment.secret)}
          </Code>
        </List.Item>
        <List.Item>
          <Text>Enter the 6-digit code the app shows now.</Text>
        </List.Item>
      </List>
      <MfaCodeForm
        label="6-digit code"
        description="The app shows a new code every 30 seconds."
        submitLabel="Confirm"
        allowRecoveryCode={false}
        onSubmit={async (code) => onConfirmed((await confirmEnrolment(code)).recoveryCodes)}
      />
      <Anchor component="button" type="button" size="sm" onClick={() => start.mutate()}>
        Start again with a new key
      </Anchor>
    </Stack>
  );
}
