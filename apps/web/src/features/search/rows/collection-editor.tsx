import { Alert, Anchor, Badge, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { workspaceEndpoints } from '@kb/contracts/workspace';
import type { CollectionSummary } from '@kb/contracts/workspace';
import { errorMessage } from '../../../app/api-client.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { endpointQuery } from '../../../app/query.ts';
import type { EditorProps } from './editor-props.ts';

/**
 * The collections the user can read, owned and shared, as the workspace lists them (the same query,
 * so a collection made or renamed there shows here at once).
 */
function useReadableCollections() {
  return useQuery(endpointQuery(workspaceEndpoints.collections, {}));
}

function ownerText(collection: CollectionSummary): string {
  return collection.mine ? 'yours' : `shared by ${collection.owner.name}`;
}

/**
 * "In collection …": pick one of your collections, or one shared with you; each shows its size.
 * The search reads the collection's compounds when it runs, so later additions count.
 */
export function CollectionEditor({ draft, errors, update }: EditorProps<'collection'>) {
  const collections = useReadableCollections();
  const rows = collections.data?.rows ?? [];
  const byId = new Map(rows.map((row) => [String(row.id), row]));
  const chosen = draft.collectionId === null ? null : (byId.get(String(draft.collectionId)) ?? null);

  if (collections.isError)
    return (
      <Alert color="red" title="Your collections could not be listed" data-testid="collection-row-error">
        {errorMessage(collections.error)}
      </Alert>
    );
  if (collections.isSuccess && rows.length === 0)
    return (
      <Text size="sm" data-testid="collection-row-empty">
        You have no collections yet — make one from a results tab or in{' '}
        <Anchor component={Link} to="/workspace">
          Workspace
        </Anchor>
        .
      </Text>
    );
  return (
    <Stack gap={4}>
      <Select
        label="Collection"
        description="Structures in this collection (its compounds when the search runs); combine it with other rows by AND, OR or NOT."
        placeholder={collections.isPending ? 'Loading your collections…' : 'Choose a collection'}
        disabled={collections.isPending}
        searchable
        nothingFoundMessage="No collection of that name"
        data={rows.map((row) => ({ value: String(row.id), label: row.name }))}
        value={chosen ? String(chosen.id) : null}
        onChange={(value) => {
          const picked = value ? byId.get(value) : undefined;
          if (picked) update((d) => ({ ...d, collectionId: picked.id, label: picked.name }));
        }}
        renderOption={({ option }) => {
          const row = byId.get(option.value);
          if (!row) return option.label;
          return (
            <Group gap={6} wrap="nowrap" justify="space-between" w="100%">
              <Stack gap={0}>
                <Text size="sm">{row.name}</Text>
                <Text size="xs" c="dimmed">
                  {ownerText(row)}
                </Text>
              </Stack>
              <Badge size="sm" variant="light" tt="none">
                {countNoun(row.compounds, 'compound')}
              </Badge>
            </Group>
          );
        }}
        maxDropdownHeight={320}
        allowDeselect={false}
        error={errors.collectionId}
        data-testid="collection-row-select"
      />
      {chosen && (
        <Text size="xs" c="dimmed" data-testid="collection-row-size" data-value={chosen.compounds}>
          {countNoun(chosen.compounds, 'compound')} now · {ownerText(chosen)}
          {chosen.compounds === 0 ? ' · an empty collection matches nothing' : ''}
        </Text>
      )}
      {draft.collectionId !== null && !chosen && collections.isSuccess && (
        <Text size="xs" c="orange" data-testid="collection-row-missing">
          “{draft.label || `Collection #${draft.collectionId}`}” is not among your collections now (deleted, or no longer shared with you):
          the search will refuse it. Choose another.
        </Text>
      )}
    </Stack>
  );
}
