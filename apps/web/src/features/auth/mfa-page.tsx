import { Alert, Button, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { mfaEndpoints } from '@kb/contracts/api';
import type { MfaStatus } from '@kb/contracts/mfa';
import { RECOVERY_CODE_COUNT } from '@kb/contracts/mfa';
import { callApi } from '../../app/api-client.ts';
import { endpointKey, endpointQuery } from '../../app/query.ts';
import { postLoginTarget } from '../../app/route-guard.ts';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { QueryView } from '../../app/ui/query-view.tsx';
import { AuthCard } from './auth-card.tsx';
import { finishLogin } from './auth-service.ts';
import { MfaCodeForm } from './mfa-code-form.tsx';
import { MfaEnrolment } from './mfa-enrolment.tsx';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';
import { verifySecondFactor } from './second-factor.ts';

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
  /** Recovery codes to show once, and whether they came with the enrolment (then the admin goes on). */
  const [codes, setCodes] = useState<{ list: string[]; afterEnrolment: boolean } | null>(null);

  // A session restored before its second step has no profile yet (the server answered none): read it
  // now, then go on to the page the admin opened, as their role may.
  const goOn = async () => {
    if (useSessionStore.getState().profile === null) {
      try {
        await finishLogin();
      } catch {
        // finishLogin ended the session locally: the guard sends the admin to log in again.
      }
    }
    await navigate(postLoginTarget(params.get('redirect'), useSessionStore.getState().currentUserRole), { replace: true });
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: endpointKey(mfaEndpoints.status, {}) });

  return (
    <AuthCard
      title="Two-step login"
      subtitle="Accounts with administrator roles log in with a code from an authenticator app on your phone as well as their password."
    >
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
                  if (codes.afterEnrolment) void goOn();
                }}
              />
            );
          }
          if (!status.required) {
            return <Text>Your account has no administrator role, so it does not need two-step login.</Text>;
          }
          if (!status.enrolled) return <MfaEnrolment onConfirmed={(list) => setCodes({ list, afterEnrolment: true })} />;
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
                  await goOn();
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

function Enrolled({ status, onRegenerated }: { status: MfaStatus; onRegenerated: (codes: string[]) => void }) {
  const [replacing, setReplacing] = useState(false);
  const left = status.recoveryCodesLeft ?? 0;
  return (
    <Stack gap="sm" data-testid="mfa-enrolled">
      <Alert color="green" role="status">
        Two-step login is on for your account.
      </Alert>
      <Text>
        Recovery codes left: <strong>{left}</strong> of {RECOVERY_CODE_COUNT}.{left <= 3 && ' Replace them before they run out.'}
      </Text>
      <Text size="sm" c="dimmed">
        Lost your phone? Log in with a recovery code, then ask a super administrator to reset your authenticator so you can set up the new
        phone.
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
