import { Button, Group, Tabs } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey, IconPlugConnectedX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { dashboardEndpoints } from '@kb/contracts/api';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { countNoun } from '../../app/format/plural.ts';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { AdminRedirectNotice } from '../errors/admin-redirect-notice.tsx';
import { DatasetsTab } from './datasets-tab.tsx';
import { DownloadHistoryTab } from './download-history-tab.tsx';
import { LoginHistoryTab } from './login-history-tab.tsx';
import { NotificationSettingsTab } from './notification-settings-tab.tsx';
import { ProfileTab } from './profile-tab.tsx';
import { RequestsTab } from './requests-tab.tsx';

/** Spec §2 dashboard sections, in order. */
const DASHBOARD_TABS = [
  { value: 'datasets', label: 'Datasets' },
  { value: 'requests', label: 'Requests for data' },
  { value: 'login-history', label: 'Login history' },
  { value: 'download-history', label: 'Download history' },
  { value: 'notifications', label: 'Notification settings' },
  { value: 'profile', label: 'Profile' },
] as const;

function CloseOtherSessionsButton() {
  const userId = useSessionStore((state) => state.userId);
  const sessionId = useSessionStore((state) => state.sessionId);
  const mutation = useMutation({
    mutationFn: () => callApi(dashboardEndpoints.closeAllSessions, { body: { user_id: userId ?? 0, sessionid: sessionId ?? '' } }),
    onSuccess: (result) =>
      notifications.show({
        color: 'green',
        message: result.closed === 0 ? 'You had no other open sessions.' : `Closed ${countNoun(result.closed, 'other session')}.`,
      }),
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  return (
    <Button
      variant="default"
      leftSection={<IconPlugConnectedX size={16} />}
      loading={mutation.isPending}
      disabled={userId === null || sessionId === null}
      onClick={() => mutation.mutate()}
    >
      Close my other sessions
    </Button>
  );
}

export function DashboardPage() {
  const [params, setParams] = useSearchParams();
  const tab = DASHBOARD_TABS.some((item) => item.value === params.get('tab')) ? params.get('tab') : 'datasets';

  return (
    <>
      <PageHeader
        title="Dashboard"
        description="Your datasets, data requests, login and download history, notification settings and profile."
        actions={
          <Group gap="xs">
            <Button component={Link} to="/change-password" variant="default" leftSection={<IconKey size={16} />}>
              Change password
            </Button>
            <CloseOtherSessionsButton />
          </Group>
        }
      />
      <AdminRedirectNotice />
      <Tabs value={tab} onChange={(value) => setParams(value ? { tab: value } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          {DASHBOARD_TABS.map((item) => (
            <Tabs.Tab key={item.value} value={item.value}>
              {item.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="datasets">
          <DatasetsTab />
        </Tabs.Panel>
        <Tabs.Panel value="requests">
          <RequestsTab />
        </Tabs.Panel>
        <Tabs.Panel value="login-history">
          <LoginHistoryTab />
        </Tabs.Panel>
        <Tabs.Panel value="download-history">
          <DownloadHistoryTab />
        </Tabs.Panel>
        <Tabs.Panel value="notifications">
          <NotificationSettingsTab />
        </Tabs.Panel>
        <Tabs.Panel value="profile">
          <ProfileTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
