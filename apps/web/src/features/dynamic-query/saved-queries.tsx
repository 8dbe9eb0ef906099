import { ActionIcon, Button, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { DqQuery, DqSavedQuery } from '@kb/contracts/dynamic-query';
import { DQ_LIMITS, dqEntity, dynamicQueryEndpoints } from '@kb/contracts/dynamic-query';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { endpointKey, endpointQuery, queryClient } from '../../app/query.ts';
import { QueryView } from '../../app/ui/query-view.tsx';

const refresh = () => queryClient.invalidateQueries({ queryKey: endpointKey(dynamicQueryEndpoints.listSaved) });

/** The user's saved queries: save the current one under a name, open one, delete one. */
export function SavedQueries({ current, onOpen }: { current: DqQuery | null; onOpen: (saved: DqSavedQuery) => void }) {
  const [name, setName] = useState('');
  const list = useQuery(endpointQuery(dynamicQueryEndpoints.listSaved, {}));
  const save = useMutation({
    mutationFn: (query: DqQuery) => callApi(dynamicQueryEndpoints.save, { body: { name: name.trim(), query } }),
    onSuccess: (saved) => {
      notifications.show({ color: 'green', message: `Saved "${saved.name}".` });
      setName('');
      void refresh();
    },
    onError: (error) => notifications.show({ color: 'red', title: 'The query could not be saved', message: errorMessage(error) }),
  });
  const open = useMutation({
    mutationFn: (id: number) => callApi(dynamicQueryEndpoints.openSaved, { params: { id } }),
    onSuccess: onOpen,
    onError: (error) => notifications.show({ color: 'red', title: 'The query could not be opened', message: errorMessage(error) }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => callApi(dynamicQueryEndpoints.deleteSaved, { params: { id } }),
    onSuccess: () => void refresh(),
    onError: (error) => notifications.show({ color: 'red', title: 'The query could not be deleted', message: errorMessage(error) }),
  });

  return (
    <Stack gap="sm" data-testid="dq-saved">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (current && name.trim()) save.mutate(current);
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            size="xs"
            label="Save this query as"
            placeholder="name"
            value={name}
            maxLength={DQ_LIMITS.maxNameLength}
            onChange={(event) => setName(event.currentTarget.value)}
            style={{ flex: 1 }}
            data-testid="dq-save-name"
          />
          <Button
            size="xs"
            type="submit"
            leftSection={<IconDeviceFloppy size={14} />}
            disabled={!current || !name.trim()}
            loading={save.isPending}
            data-testid="dq-save"
          >
            Save
          </Button>
        </Group>
      </form>
      <QueryView query={list} isEmpty={(data) => data.queries.length === 0} empty="No saved queries yet." skeletonRows={2}>
        {(data) => (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {data.queries.map((saved) => (
              <Group key={saved.id} component="li" justify="space-between" wrap="nowrap" gap="xs" data-testid="dq-saved-query">
                <UnstyledButton
                  onClick={() => open.mutate(saved.id)}
                  aria-label={`Open the saved query ${saved.name}`}
                  style={{ flex: 1, minWidth: 0 }}
                >
                  <Text size="sm" fw={500} truncate>
                    {saved.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {dqEntity(saved.query.entity)?.label ?? saved.query.entity} · {saved.query.columns.length} columns ·{' '}
                    {saved.query.filters.length} filters
                  </Text>
                </UnstyledButton>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Delete the saved query ${saved.name}`}
                  loading={remove.isPending && remove.variables === saved.id}
                  onClick={() => remove.mutate(saved.id)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}
