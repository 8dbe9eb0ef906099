import { Alert, Anchor, Button, Code, Image, List, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { mfaEndpoints } from '@kb/contracts/api';
import type { MfaStatus } from '@kb/contracts/mfa';
import { RECOVERY_CODE_COUNT } from '@kb/contracts/mfa';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { endpointKey, endpointQuery } from '../../app/query.ts';
import { postLoginTarget } from '../../app/route-guard.ts';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { QueryView } from '../../app/ui/query-view.tsx';
import { AuthCard } from './auth-card.tsx';
import { MfaCodeForm } from './mfa-code-form.tsx';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';
import { confirmEnrolment, verifySecondFactor } from './second-factor.ts';

/** The secret as people type it: groups of four. */
function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

/**
 * /account/mfa: the admin roles' second factor. Enrol an authenticator app (QR code or the secret
 * typed by hand, then the first code, then the recovery codes), give the code of the second login
 * step, or, once on, replace the recovery codes. Other roles are told they need none.
 */
export function MfaPage() {
  const query = useQuery(endpointQuery(mfaEndpoints.status, {}));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const role = useSessionStore((state) => state.currentUserRole);
  /** Recovery codes to show once, and whether they came with the enrolment (then the admin goes on). */
  const [codes, setCodes] = useState<{ list: string[]; afterEnrolment: boolean } | null>(null);

  const goOn = () => void navigate(postLoginTarget(params.get('redirect'), role), { replace: true });
  const refresh = () => queryClient.invalidateQueries({ queryKey: endpointKey(mfaEndpoints.status, {}) });

  return (
    <AuthCard title="Two-step login" subtitle="Administrator pages need a code from an authenticator app on your phone as well as your password.">
      <QueryView query={query}>
        {(status) => {
          if (codes) {
            return (
              <RecoveryCodesPanel
                codes={codes.list}
                doneLabel="I have saved them"
                onDone={() => {
                  setCodes(null);
                  void refresh();
                  if (codes.afterEnrolment) goOn();
                }}
              />
            );
          }
          if (!status.required) {
            return <Text>Your account has no administrator role, so it does not need two-step login.</Text>;
          }
          if (!status.enrolled) return <Enrolment onConfirmed={(list) => setCodes({ list, afterEnrolment: true })} />;
          if (status.state !== 'passed') {
            return (
              <MfaCodeForm
                label="Code from your authenticator app"
                description="Open your authenticator app and enter the 6-digit code for KB Search, or one of your recovery codes."
                submitLabel="Verify"
                allowRecoveryCode
                onSubmit={async (code) => {
                  await verifySecondFactor(code);
                  await refresh();
                  goOn();
                }}
              />
            );
          }
          return <Enrolled status={status} onRegenerated={(list) => setCodes({ list, afterEnrolment: false })} />;
        }}
      </QueryView>
    </AuthCard>
  );
}

function Enrolment({ onConfirmed }: { onConfirmed: (codes: string[]) => void }) {
  const start = useMutation({ mutationFn: () => callApi(mfaEndpoints.enrolStart, {}) });

  if (!start.data) {
    return (
      <Stack gap="sm">
        <Text>
          Set up an authenticator app (for example Google Authenticator, Microsoft Authenticator or 1Password) before you use
          administrator pages. You need your phone for the next steps.
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

function Enrolled({ status, onRegenerated }: { status: MfaStatus; onRegenerated: (codes: string[]) => void }) {
  const [replacing, setReplacing] = useState(false);
  const left = status.recoveryCodesLeft ?? 0;
  return (
    <Stack gap="sm" data-testid="mfa-enrolled">
      <Alert color="green" role="status">
        Two-step login is on for your account.
      </Alert>
      <Text>
        Recovery codes left: <strong>{left}</strong> of {RECOVERY_CODE_COUNT}.
        {left <= 3 && ' Replace them before they run out.'}
      </Text>
      <Text size="sm" c="dimmed">
        Lost your phone? Log in with a recovery code, then ask a super administrator to reset your authenticator so you can set up
        the new phone.
      </Text>
      {replacing ? (
        <MfaCodeForm
          label="6-digit code"
          description="To replace your recovery codes, enter the code your authenticator app shows now. The old codes stop working."
          submitLabel="Get new recovery codes"
          allowRecoveryCode={false}
          onSubmit={async (code) => onRegenerated((await callApi(mfaEndpoints.regenerateRecoveryCodes, { body: { code } })).recoveryCodes)}
        />
      ) : (
        <Button variant="default" onClick={() => setReplacing(true)}>
          Replace my recovery codes
        </Button>
      )}
    </Stack>
  );
}
