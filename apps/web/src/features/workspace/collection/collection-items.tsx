import { Anchor, Checkbox, Group, Pagination, Skeleton, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { structureLeafletLink } from '@kb/contracts/leaflets';
import { formatCount } from '../../../app/format/count-format.ts';
import { formatDateTime } from '../../../app/format/display-format.ts';
import { EmptyState, QueryErrorAlert } from '../../../app/ui/query-view.tsx';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import { useCollectionItems } from '../workspace-queries.ts';

const ITEMS_PAGE_SIZE = 25;

export interface CollectionItemsProps {
  collectionId: number;
  page: number;
  onPage: (page: number) => void;
  /** Null: the reader may not change the collection, so there is nothing to tick. */
  selected: ReadonlySet<number> | null;
  onToggle: (strIds: number[], on: boolean) => void;
}

/** A page of the collection's compounds (most recently added first), each drawn and linked to its leaflet. */
export function CollectionItems({ collectionId, page, onPage, selected, onToggle }: CollectionItemsProps) {
  const items = useCollectionItems(collectionId, page, ITEMS_PAGE_SIZE);
  if (items.isError)
    return <QueryErrorAlert error={items.error} onRetry={() => void items.refetch()} title="The compounds could not load" />;
  if (!items.data)
    return (
      <Stack gap={6} aria-busy="true" aria-label="Loading the compounds">
        {Array.from({ length: 5 }, (_, index) => (
          <Skeleton key={index} height={64} radius="sm" />
        ))}
      </Stack>
    );
  const { rows, rowCount } = items.data;
  if (rowCount === 0)
    return (
      <EmptyState>
        This collection is empty. Add compounds with “Upload”, or from the results page or a sheet with “Add to collection”.
      </EmptyState>
    );
  const pageIds = rows.map((row) => row.strId);
  const allTicked = selected !== null && pageIds.every((id) => selected.has(id));
  const someTicked = selected !== null && pageIds.some((id) => selected.has(id));
  const pages = Math.ceil(rowCount / ITEMS_PAGE_SIZE);
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={640}>
        <Table striped highlightOnHover verticalSpacing={4} data-testid="collection-items" aria-busy={items.isFetching}>
          <Table.Thead>
            <Table.Tr>
              {selected && (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Tick every compound of this page"
                    checked={allTicked}
                    indeterminate={someTicked && !allTicked}
                    onChange={(event) => onToggle(pageIds, event.currentTarget.checked)}
                  />
                </Table.Th>
              )}
              <Table.Th w={150}>Structure</Table.Th>
              <Table.Th>Structure id</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Added</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.strId} data-str-id={row.strId}>
                {selected && (
                  <Table.Td>
                    <Checkbox
                      aria-label={`Tick structure ${row.strId}`}
                      checked={selected.has(row.strId)}
                      onChange={(event) => onToggle([row.strId], event.currentTarget.checked)}
                    />
                  </Table.Td>
                )}
                <Table.Td>
                  <StructureImage strId={row.strId} width={140} height={96} alt={`Structure ${row.strId}`} />
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={structureLeafletLink(row.strId)} size="sm">
                    {row.strId}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{row.name ?? '—'}</Text>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm">{formatDateTime(row.addedAt)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {formatCount(page * ITEMS_PAGE_SIZE + 1)}–{formatCount(page * ITEMS_PAGE_SIZE + rows.length)} of {formatCount(rowCount)}
        </Text>
        {pages > 1 && (
          <Pagination total={pages} value={page + 1} onChange={(value) => onPage(value - 1)} size="sm" aria-label="Pages of compounds" />
        )}
      </Group>
    </Stack>
  );
}
