import { Anchor, Button, Group, Text, VisuallyHidden } from '@mantine/core';
import { IconTable } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ResultSetSummary } from '@kb/contracts/workspace';
import { tabInfo } from '@kb/contracts/result-tabs';
import { formatCount } from '../../../app/format/count-format.ts';
import { formatDateTime } from '../../../app/format/display-format.ts';
import type { DataColumn } from '../../../app/ui/data-table.tsx';
import { DataTable } from '../../../app/ui/data-table.tsx';
import { QueryView } from '../../../app/ui/query-view.tsx';
import { OwnerText, VisibilityBadge } from '../owned-badges.tsx';
import { workspaceLink } from '../permanent-link.tsx';
import { useResultSets } from '../workspace-queries.ts';
import { OwnedMenu } from './owned-menu.tsx';

const COLUMNS: readonly DataColumn<ResultSetSummary>[] = [
  {
    key: 'name',
    header: 'Name',
    cell: (row) => (
      <div>
        <Anchor component={Link} to={workspaceLink('resultSet', row.id)} fw={500} data-testid="result-set-link">
          {row.name}
        </Anchor>
        {row.summary && (
          <Text size="xs" c="dimmed" lineClamp={1} title={row.summary}>
            {row.summary}
          </Text>
        )}
      </div>
    ),
    cellProps: { miw: 240, maw: 420 },
  },
  {
    key: 'counts',
    header: 'Found when saved',
    cell: (row) =>
      row.counts ? `${formatCount(row.counts.stridscount)} structures · ${formatCount(row.counts.actidscount)} activities` : '—',
    cellProps: { style: { whiteSpace: 'nowrap' } },
  },
  { key: 'tab', header: 'Opens on', cell: (row) => tabInfo(row.tab)?.label ?? row.tab },
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
        <Button size="compact-xs" variant="default" component={Link} to={workspaceLink('resultSet', row.id)} data-testid="result-set-open">
          Open
        </Button>
        <Button
          size="compact-xs"
          variant="light"
          leftSection={<IconTable size={12} />}
          component={Link}
          to={`${workspaceLink('resultSet', row.id)}?as=sheet`}
          data-testid="result-set-sheet"
        >
          Open as sheet
        </Button>
        <OwnedMenu kind="resultSet" item={row} />
      </Group>
    ),
  },
];

/** Saved result sets: opening one runs its search again with its filters and view. */
export function ResultSetsList() {
  const query = useResultSets();
  return (
    <QueryView
      query={query}
      isEmpty={(data) => data.rows.length === 0}
      empty="No saved result sets yet. On the results page, choose “Save result set” to keep the search with its filters, columns, sort and selection."
    >
      {(data) => (
        <DataTable
          columns={COLUMNS}
          rows={data.rows}
          rowKey={(row) => row.id}
          minWidth={980}
          testId="result-sets-table"
          rowData={(row) => ({ 'data-name': row.name, 'data-id': row.id })}
        />
      )}
    </QueryView>
  );
}
