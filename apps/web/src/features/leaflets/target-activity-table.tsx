import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useCallback } from 'react';
import type { KeyboardEvent } from 'react';
import type { CompoundLeaflet, TargetGroup } from '@kb/contracts/leaflets';
import { EmptyState } from '../../app/ui/query-view.tsx';
import { formatCount } from '../../app/format/count-format.ts';
import { formatPchembl } from '../../app/format/number-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { ACTIVITY } from '../../app/format/nouns.ts';
import { formatPotency } from './leaflet-format.ts';
import { CappedNote, ExternalLink, LeafletSection, SortableTh } from '../../app/ui/leaflet-ui.tsx';
import { useSortedRows } from '../../app/ui/use-sorted-rows.ts';
import type { SortValue } from '../../app/ui/use-sorted-rows.ts';

type Column = 'target' | 'activities' | 'potency' | 'pchembl';

const NO_TARGET = 'No protein target';

function sortValue(group: TargetGroup, column: Column): SortValue {
  switch (column) {
    case 'target':
      return group.target_name ?? NO_TARGET;
    case 'activities':
      return group.activity_count;
    case 'potency':
      return group.best_micro_molarvalue;
    case 'pchembl':
      return group.best_pchembl;
  }
}

function TargetCell({ group }: { group: TargetGroup }) {
  if (group.target_id === null) {
    return (
      <Stack gap={0}>
        <Text size="sm" fw={500}>
          {NO_TARGET}
        </Text>
        <Text size="xs" c="dimmed">
          ADME, toxicity and physicochemical assays
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {group.target_name}
      </Text>
      <Group gap={6}>
        {group.gene_symbol && (
          <Badge size="xs" variant="light" tt="none">
            {group.gene_symbol}
          </Badge>
        )}
        {group.uniprot_id && (
          <ExternalLink href={`https://www.uniprot.org/uniprotkb/${encodeURIComponent(group.uniprot_id)}`}>{group.uniprot_id}</ExternalLink>
        )}
        {group.organism && (
          <Text size="xs" c="dimmed" fs="italic">
            {group.organism}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

function groupLabel(group: TargetGroup): string {
  return group.target_id === null ? 'without a protein target' : `on ${group.target_name ?? `target ${group.target_id}`}`;
}

function TargetTable({ groups, onOpen }: { groups: TargetGroup[]; onOpen: (group: TargetGroup) => void }) {
  const value = useCallback((group: TargetGroup, column: Column) => sortValue(group, column), []);
  const { sorted, sort, toggle } = useSortedRows<TargetGroup, Column>(groups, value, { column: 'activities', direction: 'desc' });
  const th = (column: Column, label: string, firstDirection: 'asc' | 'desc', align: 'left' | 'right' = 'right') => (
    <SortableTh
      label={label}
      align={align}
      active={sort.column === column}
      direction={sort.direction}
      onSort={() => toggle(column, firstDirection)}
    />
  );
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table highlightOnHover data-testid="leaflet-target-groups" verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            {th('target', 'Target', 'asc', 'left')}
            {th('activities', 'Activities', 'desc')}
            <Table.Th>Activity types</Table.Th>
            {th('potency', 'Best potency', 'asc')}
            {th('pchembl', 'Best pChEMBL', 'desc')}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.map((group) => (
            // The whole row opens its measurement list (Enter or Space too); links inside it (UniProt) keep their own click.
            <Table.Tr
              key={group.target_id ?? 'none'}
              data-target-id={group.target_id ?? ''}
              data-testid="leaflet-target-group"
              tabIndex={0}
              aria-label={`${countNoun(group.activity_count, ACTIVITY)} ${groupLabel(group)}: show every measurement`}
              style={{ cursor: 'pointer' }}
              onClick={(event) => {
                if (!(event.target instanceof HTMLElement) || !event.target.closest('a')) onOpen(group);
              }}
              onKeyDown={(event: KeyboardEvent<HTMLTableRowElement>) => {
                if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return;
                event.preventDefault();
                onOpen(group);
              }}
            >
              <Table.Td>
                <TargetCell group={group} />
              </Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }} data-activity-count={group.activity_count}>
                <Anchor component="span" size="sm" title="Show every measurement" data-testid="open-measurements">
                  {formatCount(group.activity_count)}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {group.activity_types.map((type) => (
                    <Badge key={type} size="xs" variant="outline" color="gray" tt="none">
                      {type}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatPotency(group.best_micro_molarvalue)}
              </Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatPchembl(group.best_pchembl)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Activities grouped by target, most measured first; each column sorts; a row opens its measurements. */
export function TargetActivitySection({
  activities,
  onOpen,
}: {
  activities: CompoundLeaflet['activities'];
  onOpen: (group: TargetGroup) => void;
}) {
  const withoutTarget = activities.groupsTotal > activities.targetsTotal ? ' and in assays without a target' : '';
  const meta =
    activities.total === 0
      ? undefined
      : `${countNoun(activities.total, ACTIVITY)} on ${countNoun(activities.targetsTotal, 'target')}${withoutTarget} · best potency from exact or upper-bound values · click a row for every measurement`;
  return (
    <LeafletSection id="activities" title="Activities by target" meta={meta}>
      {activities.groups.length === 0 ? (
        <EmptyState>No activities reported.</EmptyState>
      ) : (
        <>
          <TargetTable groups={activities.groups} onOpen={onOpen} />
          <CappedNote shown={activities.groups.length} total={activities.groupsTotal} what="target groups (the most measured)" />
        </>
      )}
    </LeafletSection>
  );
}
