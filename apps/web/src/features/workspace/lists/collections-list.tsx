import { Anchor, Button, Group, VisuallyHidden } from '@mantine/core';
import { IconTable } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CollectionSummary } from '@kb/contracts/workspace';
import { formatCount } from '../../../app/format/count-format.ts';
import { formatDateTime } from '../../../app/format/display-format.ts';
import type { DataColumn } from '../../../app/ui/data-table.tsx';
import { DataTable } from '../../../app/ui/data-table.tsx';
import { QueryView } from '../../../app/ui/query-view.tsx';
import { OwnerText, VisibilityBadge } from '../owned-badges.tsx';
import { workspaceLink } from '../permanent-link.tsx';
import { sheetHref } from '../sheet/sheet-source.ts';
import { useCollections } from '../workspace-queries.ts';
import { OwnedMenu } from './owned-menu.tsx';

const COLUMNS: readonly DataColumn<CollectionSummary>[] = [
  {
    key: 'name',
    header: 'Name',
    cell: (row) => (
      <Anchor component={Link} to={workspaceLink('collection', row.id)} fw={500} data-testid="collection-link">
        {row.name}
      </Anchor>
    ),
    cellProps: { miw: 200 },
  },
  { key: 'compounds', header: 'Compounds', align: 'right', cell: (row) => formatCount(row.compounds) },
  { key: 'owner', header: 'Owner', cell: (row) => <OwnerText owner={row.owner} mine={row.mine} /> },
  {
    key: 'visibility',
    header: 'Visibility',
    cell: (row) => <VisibilityBadge visibility={row.visibility} people={row.sharedWith ?? undefined} />,
  },
  { key: 'updated', header: 'Updated', cell: (row) => formatDateTime(row.updatedAt), cellProps: { style: { whiteSpace: 'nowrap' } } },
  {
    key: 'actions',
    header: <VisuallyHidden>Actions</VisuallyHidden>,
    cell: (row) => (
      <Group gap={4} wrap="nowrap" justify="flex-end">
        <Button size="compact-xs" variant="default" component={Link} to={workspaceLink('collection', row.id)}>
          Open
        </Button>
        <Button
          size="compact-xs"
          variant="light"
          leftSection={<IconTable size={12} />}
          component={Link}
          to={sheetHref({ kind: 'collection', collectionId: row.id })}
          disabled={row.compounds === 0}
          data-testid="collection-sheet"
        >
          Open as sheet
        </Button>
        <OwnedMenu kind="collection" item={row} />
      </Group>
    ),
  },
];

/** The user's collections and those shared with them, newest change first. */
export function CollectionsList() {
  const query = useCollections();
  return (
    <QueryView
      query={query}
      isEmpty={(data) => data.rows.length === 0}
      empty="No collections yet. Create one with “New collection”, or tick rows on the results page or in a sheet and choose “Add to collection”."
    >
      {(data) => (
        <DataTable
          columns={COLUMNS}
          rows={data.rows}
          rowKey={(row) => row.id}
          minWidth={860}
          testId="collections-table"
          rowData={(row) => ({ 'data-name': row.name, 'data-id': row.id })}
        />
      )}
    </QueryView>
  );
}
