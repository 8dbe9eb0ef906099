import { Anchor, Badge, Chip, Drawer, Group, Loader, Pagination, Stack, Table, Text } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { MEASUREMENT_LIMITS } from '@kb/contracts/leaflets';
import type { Measurement, MeasurementCondition, MeasurementList, MeasurementSort } from '@kb/contracts/leaflets';
import { formatCount } from '../../app/format/count-format.ts';
import { formatNumber, formatPchembl } from '../../app/format/number-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { formatUnit, formatUnitsInText } from '../../app/format/unit-format.ts';
import { EmptyState, QueryErrorAlert } from '../../app/ui/query-view.tsx';
import { useMayOpen } from '../../app/use-route-access.ts';
import { formatActivityValue } from './leaflet-format.ts';
import { SortableTh } from '../../app/ui/leaflet-ui.tsx';
import { MeasurementExport } from './measurement-export.tsx';
import type { MeasurementSubject, MeasurementView } from './use-measurements.ts';
import { useMeasurements } from './use-measurements.ts';

const NUMERIC = { fontVariantNumeric: 'tabular-nums' } as const;

/** "Gefitinib on EGFR (Epidermal growth factor receptor)", "structure 12 without a target". */
function titleOf(list: MeasurementList | undefined, subject: MeasurementSubject): string {
  if (!list) return subject.label ? `Measurements of ${subject.label}` : 'Measurements';
  const compound =
    list.compound.name ??
    (list.compound.str_id !== null ? `structure ${list.compound.str_id}` : `${list.compound.idType} ${list.compound.id}`);
  if (list.targetScope === 'target' && list.target)
    return `${compound} on ${list.target.name}${list.target.gene_symbol ? ` (${list.target.gene_symbol})` : ''}`;
  if (list.targetScope === 'none') return `${compound} without a target`;
  return `${compound} on every target`;
}

/** "= 12 nM" as published beside the standardised value, when the source said something else. */
function publishedText(m: Measurement): string | null {
  const published = m.activity === null ? m.activity_text : formatActivityValue(m.activity_prefix, m.activity, m.activity_uom);
  if (!published) return null;
  const standard = formatActivityValue(m.std_act_prefix, m.activity_value, m.standard_uom);
  const type = m.activity_type && m.activity_type !== m.std_activity_type ? `${m.activity_type} ` : '';
  return `${type}${published}` === standard ? null : `${type}${published}`;
}

function conditionText(c: MeasurementCondition): string {
  const relation = c.relation && c.relation !== '=' ? `${c.relation} ` : '';
  const amount =
    c.value === null ? '' : `${relation}${formatNumber(c.value, { maxFractionDigits: 3 })}${c.unit ? ` ${formatUnit(c.unit)}` : ''}`;
  return [c.text ? formatUnitsInText(c.text) : null, amount || null].filter(Boolean).join(' ');
}

function ValueCell({ m }: { m: Measurement }) {
  const published = publishedText(m);
  return (
    <Stack gap={0} align="flex-end">
      <Text size="sm" fw={500} style={{ ...NUMERIC, whiteSpace: 'nowrap' }} data-testid="measurement-value">
        {m.activity_value === null && m.activity_text
          ? m.activity_text
          : formatActivityValue(m.std_act_prefix, m.activity_value, m.standard_uom)}
      </Text>
      {published && (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} title="As published">
          published {published}
        </Text>
      )}
      {m.sd !== null && (
        <Text size="xs" c="dimmed">
          SD {formatNumber(m.sd)}
        </Text>
      )}
    </Stack>
  );
}

function AssayCell({ m }: { m: Measurement }) {
  const where = [...new Set([m.organism, m.strain, m.cell_line, m.tissue].filter((part): part is string => Boolean(part)))].join(' · ');
  return (
    <Stack gap={2}>
      <Text size="sm" lineClamp={2} title={m.assay_description ?? undefined}>
        {m.assay_description ? formatUnitsInText(m.assay_description) : '—'}
      </Text>
      <Group gap={6}>
        {m.assay_type && (
          <Badge size="xs" variant="light" color="gray" tt="none">
            {m.assay_type}
          </Badge>
        )}
        {m.enzyme_cell_assay && (
          <Text size="xs" c="dimmed">
            {m.enzyme_cell_assay}
          </Text>
        )}
        {m.assay_chembl_id && (
          <Text size="xs" c="dimmed">
            {m.assay_chembl_id}
          </Text>
        )}
      </Group>
      {where && (
        <Text size="xs" c="dimmed" fs="italic" data-testid="measurement-where">
          {where}
        </Text>
      )}
    </Stack>
  );
}

function ConditionsCell({ m }: { m: Measurement }) {
  const lines = [
    ...(m.parameter ? [{ label: 'Parameter', text: formatUnitsInText(m.parameter) }] : []),
    ...m.conditions.map((c) => ({ label: c.label, text: conditionText(c) })),
  ];
  if (lines.length === 0 && !m.activity_remarks && !m.data_validity_comment) {
    return (
      <Text size="xs" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Stack gap={0} data-testid="measurement-conditions">
      {lines.map((line, index) => (
        <Text key={index} size="xs">
          <Text span c="dimmed" size="xs">
            {line.label}
          </Text>{' '}
          {line.text}
        </Text>
      ))}
      {m.activity_remarks && (
        <Text size="xs" c="dimmed">
          Remark: {m.activity_remarks}
        </Text>
      )}
      {m.data_validity_comment && (
        <Text size="xs" c="orange">
          {m.data_validity_comment}
        </Text>
      )}
    </Stack>
  );
}

function ReferenceCell({ m }: { m: Measurement }) {
  if (m.ref_id === null || !m.reference_link) {
    return (
      <Text size="xs" c="dimmed">
        {m.data_source ?? '—'}
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      <Anchor component={Link} to={m.reference_link} size="sm" lineClamp={2} data-testid="measurement-reference">
        {m.ref_title ?? m.reference ?? `Reference ${m.ref_id}`}
      </Anchor>
      <Text size="xs" c="dimmed">
        {[m.ref_title ? m.reference : null, m.compound_label ? `compound ${m.compound_label}` : null, m.data_source]
          .filter(Boolean)
          .join(' · ')}
      </Text>
    </Stack>
  );
}

function MeasurementRow({ m, withTarget }: { m: Measurement; withTarget: boolean }) {
  return (
    <Table.Tr data-testid="measurement-row" data-act-id={m.act_id}>
      {withTarget && (
        <Table.Td>
          <Text size="sm">{m.target_name ?? 'No target'}</Text>
          {m.gene_symbol && (
            <Badge size="xs" variant="light" tt="none">
              {m.gene_symbol}
            </Badge>
          )}
        </Table.Td>
      )}
      <Table.Td>
        <Text size="sm">{m.std_activity_type ?? '—'}</Text>
        {!m.standardised && (
          <Badge
            size="xs"
            color="orange"
            variant="light"
            tt="none"
            title="The source could not standardise this activity: type, relation, value and unit are as published"
          >
            Standardised: no
          </Badge>
        )}
        {m.activity_mechanism && (
          <Text size="xs" c="dimmed">
            {m.activity_mechanism}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right">
        <ValueCell m={m} />
      </Table.Td>
      <Table.Td ta="right" style={NUMERIC}>
        {formatPchembl(m.pchembl_value)}
      </Table.Td>
      <Table.Td maw={320}>
        <AssayCell m={m} />
      </Table.Td>
      <Table.Td maw={240}>
        <ConditionsCell m={m} />
      </Table.Td>
      <Table.Td maw={260}>
        <ReferenceCell m={m} />
      </Table.Td>
      <Table.Td ta="right" style={NUMERIC}>
        {m.year ?? '—'}
      </Table.Td>
    </Table.Tr>
  );
}

/** The activity types of the list as one-choice chips ("All 120 · IC50 80 · Ki 40"). */
function TypeChips({ list, type, onType }: { list: MeasurementList; type: string | null; onType: (type: string | null) => void }) {
  if (list.types.length < 2 && type === null) return null;
  return (
    <Chip.Group multiple={false} value={type ?? '__all'} onChange={(value) => onType(value === '__all' ? null : value)}>
      <Group gap={6} role="radiogroup" aria-label="Activity type">
        <Chip size="xs" value="__all" data-testid="measurement-type-all">
          All types · {formatCount(list.total)}
        </Chip>
        {list.types
          .filter((t) => t.type !== null)
          .map((t) => (
            <Chip key={t.type} size="xs" value={t.type!} data-testid="measurement-type">
              {t.type} · {formatCount(t.count)}
            </Chip>
          ))}
      </Group>
    </Chip.Group>
  );
}

function MeasurementTable({
  list,
  view,
  onSort,
}: {
  list: MeasurementList;
  view: MeasurementView;
  onSort: (sort: MeasurementSort, first: 'asc' | 'desc') => void;
}) {
  const withTarget = list.targetScope === 'all';
  const th = (sort: MeasurementSort, label: string, first: 'asc' | 'desc', align: 'left' | 'right' = 'left') => (
    <SortableTh label={label} align={align} active={view.sort === sort} direction={view.direction} onSort={() => onSort(sort, first)} />
  );
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table highlightOnHover verticalSpacing={6} data-testid="measurement-table" stickyHeader>
        <Table.Thead>
          <Table.Tr>
            {withTarget && <Table.Th>Target</Table.Th>}
            {th('type', 'Type', 'asc')}
            {th('value', 'Value', 'asc', 'right')}
            {th('pchembl', 'pChEMBL', 'desc', 'right')}
            <Table.Th>Assay</Table.Th>
            <Table.Th>Conditions</Table.Th>
            <Table.Th>Reference</Table.Th>
            {th('year', 'Year', 'desc', 'right')}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.rows.map((m) => (
            <MeasurementRow key={m.act_id} m={m} withTarget={withTarget} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const INITIAL_VIEW: Omit<MeasurementView, 'type'> = { sort: 'value', direction: 'asc', page: 0, pageSize: MEASUREMENT_LIMITS.pageSize };

/** The list of one subject: its own type, sort and page (a new subject starts afresh, see the key in MeasurementListDrawer). */
function MeasurementListBody({ subject, onTitle }: { subject: MeasurementSubject; onTitle?: (title: string) => void }) {
  const [view, setView] = useState<MeasurementView>({ ...INITIAL_VIEW, type: subject.type ?? null });
  const query = useMeasurements(subject, view);
  const mayExport = useMayOpen()('/export');
  const list = query.data;
  const title = titleOf(list, subject);
  useEffect(() => onTitle?.(title), [title, onTitle]);
  if (query.isError && !list)
    return <QueryErrorAlert error={query.error} onRetry={() => void query.refetch()} title="Could not load the measurements" />;
  if (!list) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Loading the measurements…
        </Text>
      </Group>
    );
  }
  const pages = Math.max(1, Math.ceil(list.matching / view.pageSize));
  const first = list.matching === 0 ? 0 : view.page * view.pageSize + 1;
  const last = view.page * view.pageSize + list.rows.length;
  return (
    <Stack gap="sm" data-testid="measurement-list" data-total={list.total} data-matching={list.matching} aria-busy={query.isFetching}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Text size="sm" data-testid="measurement-total">
            <strong>{countNoun(list.total, 'measurement')}</strong>
            {list.type ? ` · ${formatCount(list.matching)} of type ${list.type}` : ''}
            {list.target?.organism ? (
              <Text span size="sm" c="dimmed" fs="italic">
                {' '}
                · {list.target.organism}
              </Text>
            ) : null}
          </Text>
          <Group gap="sm">
            <Anchor component={Link} to={list.compound.link} size="xs">
              Open the compound leaflet
            </Anchor>
            {list.target?.uniprot_id && (
              <Anchor
                href={`https://www.uniprot.org/uniprotkb/${encodeURIComponent(list.target.uniprot_id)}`}
                target="_blank"
                rel="noopener noreferrer"
                size="xs"
              >
                UniProt {list.target.uniprot_id}
              </Anchor>
            )}
          </Group>
        </Stack>
        {mayExport && <MeasurementExport subject={subject} view={view} rows={list.matching} />}
      </Group>
      <TypeChips list={list} type={view.type} onType={(type) => setView((current) => ({ ...current, type, page: 0 }))} />
      {list.rows.length === 0 ? (
        <EmptyState>No measurements{list.type ? ` of type ${list.type}` : ''}.</EmptyState>
      ) : (
        <MeasurementTable
          list={list}
          view={view}
          onSort={(sort, firstDirection) =>
            setView((current) => ({
              ...current,
              sort,
              direction: current.sort === sort ? (current.direction === 'asc' ? 'desc' : 'asc') : firstDirection,
              page: 0,
            }))
          }
        />
      )}
      <Group justify="space-between">
        <Text size="xs" c="dimmed" data-testid="measurement-range">
          {list.matching === 0 ? '' : `Rows ${formatCount(first)}–${formatCount(last)} of ${formatCount(list.matching)}`}
          {query.isFetching ? ' · updating…' : ''}
        </Text>
        {pages > 1 && (
          <Pagination
            total={pages}
            value={view.page + 1}
            onChange={(page) => setView((current) => ({ ...current, page: page - 1 }))}
            size="sm"
            aria-label="Pages of measurements"
          />
        )}
      </Group>
    </Stack>
  );
}

/**
 * Every measurement behind a number, in a side panel: what was measured, as published and
 * standardised, in which assay and conditions, and where it was published. One panel for the
 * leaflet's potencies, the Activities tab, the SAR table and the dynamic query.
 */
export function MeasurementListDrawer({ subject, onClose }: { subject: MeasurementSubject | null; onClose: () => void }) {
  const [title, setTitle] = useState('Measurements');
  const key = useMemo(() => JSON.stringify(subject), [subject]);
  return (
    <Drawer
      opened={subject !== null}
      onClose={onClose}
      position="right"
      size="min(1200px, 100vw)"
      title={
        <Text fw={600} data-testid="measurement-title">
          {title}
        </Text>
      }
      data-testid="measurement-drawer"
    >
      {subject && <MeasurementListBody key={key} subject={subject} onTitle={setTitle} />}
    </Drawer>
  );
}

/** Opens the measurement list from anywhere on a page: `open(subject)`, and `drawer` rendered once. */
export function useMeasurementList(): { open: (subject: MeasurementSubject) => void; drawer: ReactNode } {
  const [subject, setSubject] = useState<MeasurementSubject | null>(null);
  const open = useCallback((next: MeasurementSubject) => setSubject(next), []);
  const drawer = <MeasurementListDrawer subject={subject} onClose={() => setSubject(null)} />;
  return { open, drawer };
}
