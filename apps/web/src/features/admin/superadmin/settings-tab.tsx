import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, NumberInput, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMail } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RuntimeSettings, SettingKey, SettingsState } from '@kb/contracts/superadmin';
import { SETTING_BOUNDS, SETTING_KEYS, superAdminEndpoints } from '@kb/contracts/superadmin';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { endpointKey, endpointQuery } from '../../../app/query.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { QueryView } from '../../../app/ui/query-view.tsx';

const LOGIN_KEYS = SETTING_KEYS.filter((key) => key.startsWith('login'));

function SettingsForm({ state }: { state: SettingsState }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<Record<SettingKey, number | string>>(() => ({ ...state.values }));
  const changed = SETTING_KEYS.filter((key) => draft[key] !== state.values[key]);
  const save = useMutation({
    // Sent as typed: the server checks every bound and answers 400 with the reason.
    mutationFn: () =>
      callApi(superAdminEndpoints.updateSettings, {
        body: Object.fromEntries(changed.map((key) => [key, draft[key]])) as Partial<RuntimeSettings>,
      }),
    onSuccess: (next) => {
      client.setQueryData(endpointKey(superAdminEndpoints.settings, {}), next);
      setDraft({ ...next.values });
      notifications.show({ color: 'green', message: 'Settings saved. They apply from the next request.' });
    },
  });

  const field = (key: SettingKey) => {
    const { min, max, label, unit } = SETTING_BOUNDS[key];
    const isDefault = state.defaults[key] === state.values[key];
    return (
      <NumberInput
        key={key}
        label={label}
        description={`${formatCount(min)}–${formatCount(max)} ${unit}; default ${formatCount(state.defaults[key])}${isDefault ? '' : ' (changed)'}`}
        value={draft[key]}
        onChange={(value) => setDraft((d) => ({ ...d, [key]: value }))}
        min={min}
        max={max}
        allowDecimal={false}
        allowNegative={false}
        thousandSeparator=","
        data-testid={`setting-${key}`}
      />
    );
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Card withBorder radius="md" padding="lg">
        <Title order={4} mb="xs">
          Login limits
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          Wrong passwords allowed before a login is refused (429) for a while. The per-account limits do not apply on an address the account
          recently logged in from.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>{LOGIN_KEYS.map(field)}</SimpleGrid>
        <Title order={4} mt="lg" mb="xs">
          Exports
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>{field('exportBackgroundFromRows')}</SimpleGrid>
        {save.isError && (
          <Alert color="red" variant="light" mt="md" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        <Group mt="md">
          <Button type="submit" loading={save.isPending} disabled={changed.length === 0}>
            Save settings
          </Button>
          <Button variant="default" disabled={changed.length === 0} onClick={() => setDraft({ ...state.values })}>
            Discard changes
          </Button>
        </Group>
      </Card>
    </form>
  );
}

function MailCard({ mail }: { mail: SettingsState['mail'] }) {
  const client = useQueryClient();
  const test = useMutation({
    mutationFn: () => callApi(superAdminEndpoints.testMail, {}),
    onSuccess: (result) => {
      notifications.show({ color: 'green', message: result.message });
      void client.invalidateQueries({ queryKey: endpointKey(superAdminEndpoints.settings) });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={4} mb="sm">
        Mail
      </Title>
      <Table>
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>SMTP delivery</Table.Td>
            <Table.Td ta="right">
              <Badge variant="light" color={mail.smtpConfigured ? 'green' : 'gray'}>
                {mail.smtpConfigured ? 'Configured' : 'Not configured (outbox only)'}
              </Badge>
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>Sender</Table.Td>
            <Table.Td ta="right">{mail.from}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>Waiting in the outbox</Table.Td>
            <Table.Td ta="right">{formatCount(mail.outboxPending)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>Failed</Table.Td>
            <Table.Td ta="right">{formatCount(mail.outboxFailed)}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="sm">
        SMTP and the sender are set in the server’s environment (SMTP_URL, MAIL_FROM).
      </Text>
      <Button mt="sm" variant="default" leftSection={<IconMail size={16} />} loading={test.isPending} onClick={() => test.mutate()}>
        Send a test mail to me
      </Button>
    </Card>
  );
}

export function SettingsTab() {
  const query = useQuery(endpointQuery(superAdminEndpoints.settings, {}));
  return (
    <QueryView query={query}>
      {(state) => (
        <Stack>
          <SettingsForm state={state} />
          <MailCard mail={state.mail} />
        </Stack>
      )}
    </QueryView>
  );
}
