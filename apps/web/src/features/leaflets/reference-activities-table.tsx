import { Anchor, Badge, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ReferenceActivity, ReferenceLeaflet } from '@kb/contracts/leaflets';
import { EmptyState } from '../../app/ui/query-view.tsx';
import { formatCount } from '../../app/format/count-format.ts';
import { formatPchembl } from '../../app/format/number-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { ACTIVITY } from '../../app/format/nouns.ts';
import { formatUnitsInText } from '../../app/format/unit-format.ts';
import { formatActivityValue, ligandEfficiencyText, structureLeafletPath } from './leaflet-format.ts';
import { CappedNote, LeafletSection } from '../../app/ui/leaflet-ui.tsx';

const PAGE_SIZE = 25;

/** The compound of an activity: its structure's leaflet, or (peptides, antibodies, mixtures) a plain label. */
function CompoundCell({ activity }: { activity: ReferenceActivity }) {
  const label = activity.compound_label ? `${activity.compound_label} ` : '';
  if (activity.str_id === null) {
    return (
      <Text size="sm" data-testid="no-structure">
        {label}
        <Text span size="xs" c="dimmed">
          (no structure)
        </Text>
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={structureLeafletPath(activity.str_id)} size="sm">
      {label}
      <Text span size="xs" c="dimmed">
        ({activity.str_id})
      </Text>
    </Anchor>
  );
}

function ActivityRow({ activity, marks }: { activity: ReferenceActivity; marks: boolean }) {
  return (
    <Table.Tr data-testid="reference-activity" data-act-id={activity.act_id} data-in-search={String(activity.in_search)}>
      <Table.Td>
        <CompoundCell activity={activity} />
      </Table.Td>
      <Table.Td>
        {activity.target_name ? (
          <Group gap={4} wrap="nowrap">
            <Text size="sm" lineClamp={1} title={activity.target_name}>
              {activity.target_name}
            </Text>
            {activity.gene_symbol && (
              <Badge size="xs" variant="light" tt="none" style={{ flexShrink: 0 }}>
                {activity.gene_symbol}
              </Badge>
            )}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{activity.std_activity_type ?? '—'}</Text>
        {!activity.standardised && (
          <Badge
            size="xs"
            color="orange"
            variant="light"
            tt="none"
            title="ChEMBL could not standardise this activity: type, relation, value and unit are as published"
            data-testid="not-standardised"
          >
            Standardised: no
          </Badge>
        )}
        {activity.parameter && (
          <Text size="xs" c="dimmed">
            {formatUnitsInText(activity.parameter)}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
        {formatActivityValue(activity.std_act_prefix, activity.activity_value, activity.standard_uom)}
        {ligandEfficiencyText(activity) && (
          <Text size="xs" c="dimmed" data-testid="ligand-efficiency">
            {ligandEfficiencyText(activity)}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {formatPchembl(activity.pchembl_value)}
      </Table.Td>
      <Table.Td>
        <Text size="sm" lineClamp={2} title={activity.assay_description ?? undefined}>
          {activity.assay_description ? formatUnitsInText(activity.assay_description) : '—'}
        </Text>
        {activity.assay_type && (
          <Text size="xs" c="dimmed">
            {activity.assay_type}
          </Text>
        )}
      </Table.Td>
      {marks && (
        <Table.Td w={100}>
          {activity.in_search ? (
            <Badge size="xs" color="teal" variant="light" style={{ flexShrink: 0 }} miw="fit-content">
              in search
            </Badge>
          ) : null}
        </Table.Td>
      )}
    </Table.Tr>
  );
}

/** The activities the reference reports, a page at a time, by compound. */
export function ReferenceActivitiesSection({
  activities,
  inSearchOnly,
}: {
  activities: ReferenceLeaflet['activities'];
  inSearchOnly: boolean;
}) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(activities.rows.length / PAGE_SIZE));
  // A new filter may leave fewer pages than the one open.
  const current = Math.min(page, pages);
  const rows = activities.rows.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const marks = activities.inSearch !== null;
  const listed = inSearchOnly ? (activities.inSearch ?? 0) : activities.total;
  const meta = `${countNoun(activities.total, ACTIVITY)}${marks ? ` · ${formatCount(activities.inSearch ?? 0)} in your search` : ''}`;
  return (
    <LeafletSection id="activities" title="Activities reported" meta={meta}>
      {activities.rows.length === 0 ? (
        <EmptyState>{inSearchOnly ? 'None of this reference’s activities is in your search.' : 'No activities reported.'}</EmptyState>
      ) : (
        <Stack gap="sm">
          <Table.ScrollContainer minWidth={880}>
            <Table highlightOnHover verticalSpacing={6} data-testid="reference-activities">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Compound</Table.Th>
                  <Table.Th>Target</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th ta="right">Value</Table.Th>
                  <Table.Th ta="right">pChEMBL</Table.Th>
                  <Table.Th>Assay</Table.Th>
                  {marks && <Table.Th w={100}>Search</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((activity) => (
                  <ActivityRow key={activity.act_id} activity={activity} marks={marks} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 && (
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                Rows {formatCount((current - 1) * PAGE_SIZE + 1)}–{formatCount((current - 1) * PAGE_SIZE + rows.length)} of{' '}
                {formatCount(activities.rows.length)}
              </Text>
              <Pagination total={pages} value={current} onChange={setPage} size="sm" aria-label="Pages of activities" />
            </Group>
          )}
          <CappedNote shown={activities.rows.length} total={listed} what="activities" />
        </Stack>
      )}
    </LeafletSection>
  );
}
