import { Badge, Button, Collapse, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChartDots, IconFlask, IconPencil, IconSearch, IconShare, IconTable, IconTrash, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { CollectionDetail } from '@kb/contracts/workspace';
import { formatCount } from '../../../app/format/count-format.ts';
import { formatDateTime } from '../../../app/format/display-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { PageHeader } from '../../../app/ui/page-header.tsx';
import { useMayOpen } from '../../../app/use-route-access.ts';
import { QueryErrorAlert } from '../../../app/ui/query-view.tsx';
import { ConfirmButton } from '../../export/confirm-button.tsx';
import { NameDialog } from '../name-dialog.tsx';
import { NotSharedPage, idOfParam } from '../not-shared.tsx';
import { OwnerText, VisibilityBadge } from '../owned-badges.tsx';
import { CopyWorkspaceLink, workspaceLink } from '../permanent-link.tsx';
import { SharingDialog } from '../sharing/sharing-dialog.tsx';
import { sheetHref } from '../sheet/sheet-source.ts';
import { isNotFound, useCollection, useDelete, useRemoveItems, useRename } from '../workspace-queries.ts';
import { CollectionItems } from './collection-items.tsx';
import { UploadPanel } from './upload-panel.tsx';
import { useCollectionSearch } from './use-collection-search.ts';
import type { CollectionDestination } from './use-collection-search.ts';
import { toggleIds } from '../tick-set.ts';

/** /workspace/collections/:id — one collection's compounds and what its owner or an editor can do with them. */
export function CollectionPage() {
  const id = idOfParam(useParams().id);
  if (id === null) return <NotSharedPage what="collection" />;
  return <CollectionLoader id={id} />;
}

function CollectionLoader({ id }: { id: number }) {
  const collection = useCollection(id);
  if (collection.isError)
    return isNotFound(collection.error) ? (
      <NotSharedPage what="collection" />
    ) : (
      <QueryErrorAlert error={collection.error} onRetry={() => void collection.refetch()} title="The collection could not load" />
    );
  if (!collection.data) return <Text size="sm">Loading the collection…</Text>;
  return <CollectionView collection={collection.data} />;
}

function CollectionFacts({ collection }: { collection: CollectionDetail }) {
  return (
    <Group gap="sm" wrap="wrap">
      <Badge variant="outline" color="gray" tt="none" data-testid="collection-count" data-value={collection.compounds}>
        {countNoun(collection.compounds, 'compound')}
      </Badge>
      <VisibilityBadge visibility={collection.visibility} people={collection.sharing?.people.length} />
      <Group gap={4}>
        <Text size="sm" c="dimmed">
          Owner:
        </Text>
        <OwnerText owner={collection.owner} mine={collection.mine} />
      </Group>
      <Text size="sm" c="dimmed">
        Updated {formatDateTime(collection.updatedAt)}
      </Text>
      {!collection.canEdit && (
        <Badge variant="light" color="gray" tt="none">
          Read only
        </Badge>
      )}
    </Group>
  );
}

/**
 * Search, SAR view, Analyzers: the search `[In collection X]`, landing on its results, the SAR view
 * or the analyzers of its Structures tab. An empty collection has nothing to open.
 */
function CollectionSearchButtons({ collection }: { collection: CollectionDetail }) {
  const mayOpen = useMayOpen();
  const search = useCollectionSearch(collection);
  const empty = collection.compounds === 0;
  const button = (destination: CollectionDestination, label: string, icon: ReactNode, hint: string) => (
    <Tooltip label={empty ? 'The collection is empty: add compounds first' : hint}>
      <Button
        variant="default"
        leftSection={icon}
        disabled={empty || (search.running !== null && search.running !== destination)}
        loading={search.running === destination}
        onClick={() => void search.open(destination)}
        data-testid={`collection-${destination}`}
      >
        {label}
      </Button>
    </Tooltip>
  );
  return (
    <>
      {search.confirmDialog}
      {button('results', 'Search', <IconSearch size={16} />, 'Search its compounds: combine it with other rows on the search page')}
      {mayOpen('/sarview/:tabid') &&
        button('sar', 'SAR view', <IconFlask size={16} />, 'Study its compounds in the SAR view: R-groups, activity cliffs, matched pairs')}
      {mayOpen('/analyzers/:tabid') && button('analyzers', 'Analyzers', <IconChartDots size={16} />, 'Charts over its compounds')}
    </>
  );
}

function CollectionView({ collection }: { collection: CollectionDetail }) {
  const navigate = useNavigate();
  const [page, setPage] = useState(0);
  const [ticked, setTicked] = useState<Set<number>>(new Set());
  const [uploading, setUploading] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const remove = useRemoveItems();
  const rename = useRename('collection');
  const deletion = useDelete('collection');

  const toggle = (strIds: number[], on: boolean) => setTicked((current) => toggleIds(current, strIds, on));
  const removeTicked = () =>
    remove.mutate(
      { id: collection.id, strIds: [...ticked] },
      {
        onSuccess: (answer) => {
          notifications.show({
            color: 'teal',
            title: 'Removed',
            message: `${countNoun(answer.changed, 'compound')} removed; ${formatCount(answer.compounds)} left.`,
          });
          setTicked(new Set());
        },
      },
    );

  return (
    <Stack gap="md" data-testid="collection-page" data-collection={collection.id}>
      <PageHeader
        title={collection.name}
        description={collection.description || undefined}
        actions={
          <Group gap="xs">
            <Button
              component={Link}
              to={sheetHref({ kind: 'collection', collectionId: collection.id })}
              leftSection={<IconTable size={16} />}
              disabled={collection.compounds === 0}
              data-testid="collection-open-sheet"
            >
              Open as sheet
            </Button>
            <CollectionSearchButtons collection={collection} />
            <CopyWorkspaceLink path={workspaceLink('collection', collection.id)} />
          </Group>
        }
      />
      <CollectionFacts collection={collection} />
      {collection.canEdit && (
        <Group gap="xs">
          <Button
            size="xs"
            variant={uploading ? 'filled' : 'default'}
            leftSection={<IconUpload size={14} />}
            onClick={() => setUploading((open) => !open)}
            data-testid="collection-upload"
          >
            Upload…
          </Button>
          <Button
            size="xs"
            variant="default"
            color="red"
            leftSection={<IconTrash size={14} />}
            disabled={ticked.size === 0}
            loading={remove.isPending}
            onClick={removeTicked}
            data-testid="collection-remove"
          >
            {ticked.size > 0 ? `Remove ${countNoun(ticked.size, 'ticked compound')}` : 'Remove ticked'}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPencil size={14} />}
            onClick={() => setRenaming(true)}
            data-testid="collection-rename"
          >
            Rename…
          </Button>
          {collection.mine && (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconShare size={14} />}
              onClick={() => setSharing(true)}
              data-testid="collection-share"
            >
              Share…
            </Button>
          )}
          {collection.mine && (
            <ConfirmButton
              size="xs"
              variant="subtle"
              color="red"
              question={`Delete “${collection.name}” for you and everyone it is shared with? This cannot be undone.`}
              confirmLabel="Delete"
              loading={deletion.isPending}
              onConfirm={() => deletion.mutate(collection.id, { onSuccess: () => navigate('/workspace') })}
              testId="collection-delete"
            >
              Delete
            </ConfirmButton>
          )}
        </Group>
      )}
      <Collapse expanded={uploading}>
        <Paper withBorder p="md" radius="md">
          <UploadPanel collectionId={collection.id} />
        </Paper>
      </Collapse>
      <CollectionItems
        collectionId={collection.id}
        page={page}
        onPage={setPage}
        selected={collection.canEdit ? ticked : null}
        onToggle={toggle}
      />
      <SharingDialog
        target={sharing ? { kind: 'collection', id: collection.id, name: collection.name } : null}
        onClose={() => setSharing(false)}
      />
      <NameDialog
        opened={renaming}
        title={`Rename “${collection.name}”`}
        initial={collection.name}
        submitLabel="Rename"
        busy={rename.isPending}
        onClose={() => setRenaming(false)}
        onSubmit={(name) => rename.mutate({ id: collection.id, name }, { onSuccess: () => setRenaming(false) })}
      />
    </Stack>
  );
}
