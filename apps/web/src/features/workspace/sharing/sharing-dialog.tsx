import { ActionIcon, Alert, Button, Group, Modal, SegmentedControl, Select, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ShareAccess, Sharing, Visibility } from '@kb/contracts/workspace';
import { workspaceEndpoints } from '@kb/contracts/workspace';
import { endpointQuery } from '../../../app/query.ts';
import { QueryErrorAlert } from '../../../app/ui/query-view.tsx';
import { CopyWorkspaceLink, workspaceLink } from '../permanent-link.tsx';
import type { WorkspaceKind } from '../workspace-queries.ts';
import { useShare } from '../workspace-queries.ts';
import type { SharingDraft } from './sharing-form.ts';
import { draftError, draftOf, sharingRequest } from './sharing-form.ts';

const VISIBILITY_OPTIONS: { value: Visibility; label: string }[] = [
  { value: 'private', label: 'Private' },
  { value: 'people', label: 'Named colleagues' },
  { value: 'organisation', label: 'Whole organisation' },
];
const ACCESS_OPTIONS: { value: ShareAccess; label: string }[] = [
  { value: 'read', label: 'Can view' },
  { value: 'edit', label: 'Can edit' },
];

export interface SharingTarget {
  kind: WorkspaceKind;
  id: number;
  name: string;
}

/**
 * Who besides the owner sees a collection or saved result set: nobody, named colleagues (each
 * viewing or editing) or the whole organisation. Only the owner opens it; the picker lists the
 * colleagues of the owner's organisation only (the server answers no one else).
 */
export function SharingDialog({ target, onClose }: { target: SharingTarget | null; onClose: () => void }) {
  return (
    <Modal opened={target !== null} onClose={onClose} title={target ? `Share “${target.name}”` : ''} size="lg" centered>
      {target && <SharingLoader target={target} onClose={onClose} />}
    </Modal>
  );
}

/** The current sharing comes with the object's detail (the lists do not carry it). */
function SharingLoader({ target, onClose }: { target: SharingTarget; onClose: () => void }) {
  const collection = useQuery({
    ...endpointQuery(workspaceEndpoints.collection, { params: { id: target.id } }),
    enabled: target.kind === 'collection',
  });
  const resultSet = useQuery({
    ...endpointQuery(workspaceEndpoints.resultSet, { params: { id: target.id } }),
    enabled: target.kind === 'resultSet',
  });
  const detail = target.kind === 'collection' ? collection : resultSet;
  if (detail.isError)
    return <QueryErrorAlert error={detail.error} onRetry={() => void detail.refetch()} title="The sharing could not load" />;
  if (!detail.data) return <Text size="sm">Loading the current sharing…</Text>;
  return <SharingForm target={target} sharing={detail.data.sharing} onClose={onClose} />;
}

function SharingForm({ target, sharing, onClose }: { target: SharingTarget; sharing: Sharing | null; onClose: () => void }) {
  const [draft, setDraft] = useState<SharingDraft>(() => draftOf(sharing));
  const [tried, setTried] = useState(false);
  const share = useShare(target.kind);
  const error = tried ? draftError(draft) : null;
  const save = () => {
    setTried(true);
    if (draftError(draft)) return;
    share.mutate(
      { id: target.id, sharing: sharingRequest(draft) },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: 'Sharing saved', message: `“${target.name}” is ${describeDraft(draft)}.` });
          onClose();
        },
      },
    );
  };
  return (
    <Stack gap="md" data-testid="sharing-dialog">
      <SegmentedControl
        fullWidth
        value={draft.visibility}
        onChange={(value) => setDraft({ ...draft, visibility: value as Visibility })}
        data={VISIBILITY_OPTIONS}
        aria-label="Who sees it"
        data-testid="sharing-visibility"
      />
      {draft.visibility === 'private' && <Text size="sm">Only you see it.</Text>}
      {draft.visibility === 'organisation' && (
        <Group gap="sm">
          <Text size="sm">Everyone of your organisation</Text>
          <SegmentedControl
            size="xs"
            value={draft.organisationAccess}
            onChange={(value) => setDraft({ ...draft, organisationAccess: value as ShareAccess })}
            data={ACCESS_OPTIONS}
            aria-label="What your organisation may do"
            data-testid="sharing-organisation-access"
          />
        </Group>
      )}
      {draft.visibility === 'people' && <PeopleEditor draft={draft} onChange={setDraft} />}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="space-between">
        <CopyWorkspaceLink path={workspaceLink(target.kind, target.id)} />
        <Group gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={share.isPending} data-testid="sharing-save">
            Save sharing
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

function describeDraft(draft: SharingDraft): string {
  if (draft.visibility === 'private') return 'private';
  if (draft.visibility === 'organisation')
    return `shared with your organisation (${draft.organisationAccess === 'edit' ? 'can edit' : 'can view'})`;
  return `shared with ${draft.people.length} colleague${draft.people.length === 1 ? '' : 's'}`;
}

/** The named colleagues with their access, and a search over the organisation to add more. */
function PeopleEditor({ draft, onChange }: { draft: SharingDraft; onChange: (draft: SharingDraft) => void }) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim().slice(0, 200), 250);
  const colleagues = useQuery(endpointQuery(workspaceEndpoints.colleagues, { query: { q } }));
  const chosen = new Set(draft.people.map((person) => person.userId));
  const options = (colleagues.data?.rows ?? [])
    .filter((person) => !chosen.has(person.userId))
    .map((person) => ({ value: String(person.userId), label: `${person.name} · ${person.email}` }));
  const add = (value: string | null) => {
    const person = colleagues.data?.rows.find((row) => String(row.userId) === value);
    if (person) onChange({ ...draft, people: [...draft.people, { ...person, access: 'read' }] });
    setSearch('');
  };
  const setAccess = (userId: number, access: ShareAccess) =>
    onChange({ ...draft, people: draft.people.map((person) => (person.userId === userId ? { ...person, access } : person)) });
  const remove = (userId: number) => onChange({ ...draft, people: draft.people.filter((person) => person.userId !== userId) });

  if (colleagues.data && colleagues.data.organisation === null)
    return (
      <Alert color="yellow" variant="light">
        You belong to no organisation, so there is nobody to share with. Ask your administrator to add you to yours.
      </Alert>
    );
  return (
    <Stack gap="xs">
      <Select
        label={colleagues.data?.organisation ? `Add a colleague of ${colleagues.data.organisation}` : 'Add a colleague'}
        placeholder="Type a name or e-mail"
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        value={null}
        onChange={add}
        data={options}
        filter={({ options: all }) => all}
        nothingFoundMessage={colleagues.isFetching ? 'Searching…' : 'No colleague matches'}
        data-testid="sharing-colleague-picker"
      />
      {colleagues.isError && (
        <Text size="sm" c="red">
          The colleagues could not load: {colleagues.error.message}
        </Text>
      )}
      {draft.people.length > 0 ? (
        <Table data-testid="sharing-people">
          <Table.Tbody>
            {draft.people.map((person) => (
              <Table.Tr key={person.userId} data-user={person.email}>
                <Table.Td>
                  <Text size="sm">{person.name}</Text>
                  <Text size="xs" c="dimmed">
                    {person.email}
                  </Text>
                </Table.Td>
                <Table.Td w={190}>
                  <SegmentedControl
                    size="xs"
                    value={person.access}
                    onChange={(value) => setAccess(person.userId, value as ShareAccess)}
                    data={ACCESS_OPTIONS}
                    aria-label={`What ${person.name} may do`}
                  />
                </Table.Td>
                <Table.Td w={40}>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    onClick={() => remove(person.userId)}
                    aria-label={`Stop sharing with ${person.name}`}
                  >
                    <IconTrash size={14} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          No colleague chosen yet.
        </Text>
      )}
    </Stack>
  );
}
