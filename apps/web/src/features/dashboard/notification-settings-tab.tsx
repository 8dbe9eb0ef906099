import { Alert, Button, Group, Stack, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { dashboardEndpoints } from '@kb/contracts/api';
import type { NotificationSettings } from '@kb/contracts/dashboard';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { endpointKey, endpointQuery } from '../../app/query.ts';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { QueryView } from '../../app/ui/query-view.tsx';

type SettingsValues = Omit<NotificationSettings, 'notificationSettingsId'>;

const SWITCHES: readonly { key: keyof SettingsValues; label: string; description: string }[] = [
  {
    key: 'is_notification_email',
    label: 'E-mail notifications',
    description: 'Receive notifications by e-mail at all. Turn off to silence every e-mail below.',
  },
  {
    key: 'notificationSystemEmail',
    label: 'System e-mails',
    description: 'Maintenance windows, security notices and changes to your subscription.',
  },
  {
    key: 'notificationDatabaseEmail',
    label: 'Database update e-mails',
    description: 'A message when a new knowledge-base release or flat-file dataset is available.',
  },
];

function SettingsForm({ userId, settings }: { userId: number; settings: NotificationSettings }) {
  const queryClient = useQueryClient();
  const form = useForm<SettingsValues>({
    initialValues: {
      is_notification_email: settings.is_notification_email,
      notificationSystemEmail: settings.notificationSystemEmail,
      notificationDatabaseEmail: settings.notificationDatabaseEmail,
    },
  });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    const values = {
      is_notification_email: settings.is_notification_email,
      notificationSystemEmail: settings.notificationSystemEmail,
      notificationDatabaseEmail: settings.notificationDatabaseEmail,
    };
    setValues(values);
    resetDirty(values);
    // Only a new answer from the server replaces what the form shows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings]);

  const mutation = useMutation({
    mutationFn: (values: SettingsValues) => callApi(dashboardEndpoints.notificationSettings, { body: { id: userId, settings: values } }),
    onSuccess: (saved) => {
      queryClient.setQueryData(endpointKey(dashboardEndpoints.notificationSettings, { body: { id: userId } }), saved);
      notifications.show({ color: 'green', message: 'Notification settings saved.' });
    },
  });

  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values))}>
      <Stack gap="md" maw={560}>
        {mutation.isError && (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error)}
          </Alert>
        )}
        {SWITCHES.map((item) => (
          <Switch
            key={item.key}
            label={item.label}
            description={item.description}
            disabled={item.key !== 'is_notification_email' && !form.values.is_notification_email}
            {...form.getInputProps(item.key, { type: 'checkbox' })}
          />
        ))}
        <Group>
          <Button type="submit" loading={mutation.isPending} disabled={!form.isDirty()}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function NotificationSettingsTab() {
  const userId = useSessionStore((state) => state.userId);
  const query = useQuery({
    ...endpointQuery(dashboardEndpoints.notificationSettings, { body: { id: userId ?? 0 } }),
    enabled: userId !== null,
  });
  if (userId === null) return null;
  return <QueryView query={query}>{(settings) => <SettingsForm userId={userId} settings={settings} />}</QueryView>;
}
