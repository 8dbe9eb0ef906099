import { QueryErrorAlert } from '../../../app/ui/query-view.tsx';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Drawer,
  FileButton,
  Group,
  Menu,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconDeviceFloppy,
  IconDots,
  IconDownload,
  IconFolderOpen,
  IconList,
  IconStar,
  IconStarFilled,
  IconTrash,
} from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { searchEndpoints } from '@kb/contracts/search-api';
import type { CriteriaOption, SearchCriteria } from '@kb/contracts/search';
import { callApi, downloadApi, errorMessage } from '../../../app/api-client.ts';
import { endpointKey, endpointQuery } from '../../../app/query.ts';
import { useSearchBuilderStore } from '../builder/search-builder-store.ts';
import { useSearchChartsStore } from './search-charts-store.ts';
import { formatDateTime } from '../../../app/format/display-format.ts';
import { saveBlob } from '../../../app/ui/save-blob.ts';
import { SAVED_QUERY_MAX_BYTES, parseSavedQueryText, savedQueryFileName } from './saved-query-file.ts';
import type { LoadedSearch } from './load-search.ts';
import { loadSavedCriteria } from './load-search.ts';
import { AlertToggle } from '../../alerts/alert-toggle.tsx';

/** A name for what is being saved: a modal with one field (and the default switch for "Save as…"). */
function NameDialog({
  opened,
  title,
  submitLabel,
  withDefault,
  busy,
  error,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  title: string;
  submitLabel: string;
  withDefault: boolean;
  busy: boolean;
  error: string | null;
  onClose: () => void;
  onSubmit: (name: string, makeDefault: boolean) => void;
}) {
  const [name, setName] = useState('');
  const [makeDefault, setMakeDefault] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) onSubmit(name.trim(), makeDefault);
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <TextInput
            label="Name"
            placeholder="e.g. EGFR inhibitors, IC50 < 100 nM"
            maxLength={200}
            required
            data-autofocus
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          {withDefault && (
            <Checkbox
              label="Make it my default search (opened in an empty search page)"
              checked={makeDefault}
              onChange={(event) => setMakeDefault(event.currentTarget.checked)}
            />
          )}
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!name.trim()}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export interface SavedQueryActionsProps {
  /** The criteria to save, or a message saying why there is nothing to save yet. */
  current: () => { criteria: SearchCriteria } | { message: string };
  /** Puts loaded criteria into the builder (asking first when unsaved rows would be replaced). */
  onLoad: (loaded: LoadedSearch) => Promise<void>;
  /** Shows an error about a file or a saved search in the page. */
  onError: (message: string | null) => void;
}

/** "Open query", "Save query", "Save as…" and the list of saved searches (spec §7 save/query, variable/save, criteria). */
export function SavedQueryActions({ current, onLoad, onError }: SavedQueryActionsProps) {
  const queryClient = useQueryClient();
  const appliedFilters = useSearchChartsStore((state) => state.appliedFilters);
  const markClean = useSearchBuilderStore((state) => state.markClean);
  const [dialog, setDialog] = useState<'file' | 'account' | null>(null);
  const [listOpen, setListOpen] = useState(false);
  const resetFile = useRef<() => void>(null);

  const needCriteria = (): SearchCriteria | null => {
    const built = current();
    if ('message' in built) {
      onError(built.message);
      return null;
    }
    return built.criteria;
  };

  const saveFile = useMutation({
    mutationFn: async ({ name, criteria }: { name: string; criteria: SearchCriteria }) => {
      const blob = await downloadApi(searchEndpoints.saveQuery, { body: { name, searchcriteria: criteria, appliedFilters } });
      saveBlob(blob, savedQueryFileName(name));
    },
    onSuccess: () => {
      setDialog(null);
      markClean();
      notifications.show({ color: 'green', message: 'The query file was saved to your downloads.' });
    },
  });

  const saveToAccount = useMutation({
    mutationFn: ({ name, makeDefault, criteria }: { name: string; makeDefault: boolean; criteria: SearchCriteria }) =>
      callApi(searchEndpoints.variableSave, { body: { name, makeDefault, searchcriteria: criteria, appliedFilters } }),
    onSuccess: (saved) => {
      setDialog(null);
      markClean();
      void queryClient.invalidateQueries({ queryKey: endpointKey(searchEndpoints.criteriaFetch) });
      void queryClient.invalidateQueries({ queryKey: endpointKey(searchEndpoints.home) });
      notifications.show({
        color: 'green',
        message: `Saved “${saved.criteria_name}” to your account${saved.is_active ? ' as your default search' : ''}.`,
      });
    },
  });

  const openFile = async (file: File | null) => {
    resetFile.current?.();
    if (!file) return;
    onError(null);
    if (file.size > SAVED_QUERY_MAX_BYTES) {
      onError(`“${file.name}” is too large to be a saved query.`);
      return;
    }
    const parsed = parseSavedQueryText(await file.text());
    if (!parsed.ok) {
      onError(`${file.name}: ${parsed.message}`);
      return;
    }
    await onLoad({ name: parsed.file.name, criteria: parsed.file.searchcriteria, appliedFilters: parsed.file.appliedFilters });
  };

  return (
    <Group gap="xs">
      <FileButton accept=".json,application/json" onChange={(file) => void openFile(file)} resetRef={resetFile}>
        {(props) => (
          <Button {...props} variant="default" leftSection={<IconFolderOpen size={16} />}>
            Open query
          </Button>
        )}
      </FileButton>
      <Button
        variant="default"
        leftSection={<IconDownload size={16} />}
        onClick={() => {
          if (needCriteria()) {
            saveFile.reset();
            setDialog('file');
          }
        }}
      >
        Save query
      </Button>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="default" size="lg" aria-label="More saving options">
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconDeviceFloppy size={16} />}
            onClick={() => {
              if (needCriteria()) {
                saveToAccount.reset();
                setDialog('account');
              }
            }}
          >
            Save as… (to my account)
          </Menu.Item>
          <Menu.Item leftSection={<IconList size={16} />} onClick={() => setListOpen(true)}>
            My saved searches
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>

      <NameDialog
        key={`file-${dialog === 'file'}`}
        opened={dialog === 'file'}
        title="Save the query as a file"
        submitLabel="Download"
        withDefault={false}
        busy={saveFile.isPending}
        error={saveFile.isError ? errorMessage(saveFile.error) : null}
        onClose={() => setDialog(null)}
        onSubmit={(name) => {
          const criteria = needCriteria();
          if (criteria) saveFile.mutate({ name, criteria });
        }}
      />
      <NameDialog
        key={`account-${dialog === 'account'}`}
        opened={dialog === 'account'}
        title="Save the search to your account"
        submitLabel="Save"
        withDefault
        busy={saveToAccount.isPending}
        error={saveToAccount.isError ? errorMessage(saveToAccount.error) : null}
        onClose={() => setDialog(null)}
        onSubmit={(name, makeDefault) => {
          const criteria = needCriteria();
          if (criteria) saveToAccount.mutate({ name, makeDefault, criteria });
        }}
      />
      <Drawer opened={listOpen} onClose={() => setListOpen(false)} title="My saved searches" position="right" size="md">
        {listOpen && (
          <SavedCriteriaList
            onLoad={async (loaded) => {
              setListOpen(false);
              await onLoad(loaded);
            }}
          />
        )}
      </Drawer>
    </Group>
  );
}

function RowActions({ option, children }: { option: CriteriaOption; children: ReactNode }) {
  return (
    <Group gap={4} wrap="nowrap" aria-label={`Actions for ${option.criteria_name}`}>
      {children}
    </Group>
  );
}

/** The saved searches of the account: load, make default, delete (spec §3 "Criteria options"). */
function SavedCriteriaList({ onLoad }: { onLoad: (loaded: LoadedSearch) => Promise<void> }) {
  const queryClient = useQueryClient();
  const list = useQuery(endpointQuery(searchEndpoints.criteriaFetch, {}));
  const [message, setMessage] = useState<string | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: endpointKey(searchEndpoints.criteriaFetch) });
    void queryClient.invalidateQueries({ queryKey: endpointKey(searchEndpoints.home) });
  };

  const load = useMutation({
    mutationFn: (option: CriteriaOption) => loadSavedCriteria(option.criteria_id),
    onSuccess: async (loaded) => {
      refresh();
      await onLoad(loaded);
    },
    onError: (error) => setMessage(errorMessage(error)),
  });
  const makeDefault = useMutation({
    mutationFn: (option: CriteriaOption) => callApi(searchEndpoints.criteriaSelect, { body: { criteriaId: option.criteria_id } }),
    onSuccess: (chosen) => {
      refresh();
      notifications.show({ color: 'green', message: `“${chosen.criteria_name}” is now your default search.` });
    },
    onError: (error) => setMessage(errorMessage(error)),
  });
  const remove = useMutation({
    mutationFn: (option: CriteriaOption) => callApi(searchEndpoints.criteriaDelete, { body: { criteriaId: option.criteria_id } }),
    onSuccess: refresh,
    onError: (error) => setMessage(errorMessage(error)),
  });
  const [confirmDelete, setConfirmDelete] = useState<CriteriaOption | null>(null);

  if (list.isPending)
    return (
      <Text size="sm" c="dimmed">
        Loading your saved searches…
      </Text>
    );
  if (list.isError) {
    return <QueryErrorAlert title="Your saved searches could not load" error={list.error} onRetry={() => void list.refetch()} />;
  }
  if (list.data.rows.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="empty-state">
        No saved searches yet. Use “Save as…” to keep a search in your account.
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {message && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setMessage(null)}>
          {message}
        </Alert>
      )}
      <Table highlightOnHover data-testid="saved-criteria">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Saved</Table.Th>
            <Table.Th>Alert</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.data.rows.map((option) => (
            <Table.Tr key={option.criteria_id}>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Text size="sm">{option.criteria_name}</Text>
                  {option.is_active && (
                    <Badge size="xs" variant="light">
                      default
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="xs" c="dimmed">
                  {formatDateTime(option.created_at)}
                </Text>
              </Table.Td>
              <Table.Td>
                <AlertToggle criteriaId={option.criteria_id} name={option.criteria_name} />
              </Table.Td>
              <Table.Td>
                <RowActions option={option}>
                  <Button
                    size="compact-xs"
                    variant="light"
                    loading={load.isPending && load.variables?.criteria_id === option.criteria_id}
                    onClick={() => load.mutate(option)}
                  >
                    Load
                  </Button>
                  <Tooltip label={option.is_active ? 'Your default search' : 'Make it my default search'}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={
                        option.is_active
                          ? `${option.criteria_name} is your default search`
                          : `Make ${option.criteria_name} my default search`
                      }
                      disabled={option.is_active}
                      loading={makeDefault.isPending && makeDefault.variables?.criteria_id === option.criteria_id}
                      onClick={() => makeDefault.mutate(option)}
                    >
                      {option.is_active ? <IconStarFilled size={16} /> : <IconStar size={16} />}
                    </ActionIcon>
                  </Tooltip>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Delete ${option.criteria_name}`}
                    onClick={() => setConfirmDelete(option)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </RowActions>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Modal opened={confirmDelete !== null} onClose={() => setConfirmDelete(null)} title="Delete the saved search?" centered>
        <Text size="sm">“{confirmDelete?.criteria_name}” will be deleted from your account.</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirmDelete(null)}>
            Keep it
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => {
              if (confirmDelete) remove.mutate(confirmDelete, { onSettled: () => setConfirmDelete(null) });
            }}
          >
            Delete
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
