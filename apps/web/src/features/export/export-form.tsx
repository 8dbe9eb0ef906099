import { Alert, Card, Group, Radio, SegmentedControl, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconFileExport } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router';
import type { ExportFormat } from '@kb/contracts/exports';
import { EXPORT_FORMATS, EXPORT_FORMAT_LABELS } from '@kb/contracts/exports';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { RESULT_TABS } from '@kb/contracts/result-tabs';
import type { ResultsSession } from '@kb/contracts/results';
import { isApiRequestError, errorMessage } from '../../app/api-client.ts';
import type { ResultsScope } from '../results/results-store.ts';
import { QueryView } from '../../app/ui/query-view.tsx';
import { formatCount } from '../../app/format/count-format.ts';
import { ColumnChecklist } from './column-checklist.tsx';
import { ExportCost } from './export-cost.tsx';
import { CreditQuestion } from './credit-question.tsx';
import { ExportJobCard } from './export-job-card.tsx';
import type { RowsChoice } from './export-scope.ts';
import { SDF_NEEDS_STRUCTURES, formatForTab, sdfAllowed, selectedRowsLabel } from './export-scope.ts';
import type { ExportDraft } from './use-export-draft.ts';
import { useExportDraft } from './use-export-draft.ts';
import { useStartExport } from './use-start-export.ts';
import { countNoun } from '../../app/format/plural.ts';
import type { NounForms } from '../../app/format/plural.ts';

const FORMAT_SHORT: Record<ExportFormat, string> = { csv: 'CSV', xlsx: 'XLSX', sdf: 'SDF' };
const CREDIT_FORMAT_LABELS: Record<ExportFormat, string> = { csv: 'CSV', xlsx: 'Excel (XLSX)', sdf: 'SDF' };
/** What one record of a tab is, for the credit question ("Export 646 activities as CSV…"). */
const TAB_RECORD_NOUNS: Record<ResultTabKey, string | NounForms> = {
  structuretab: 'structure',
  activitiestab: { one: 'activity', other: 'activities' },
  assaytab: 'assay',
  developmentcompoundstab: 'development compound',
  documentstab: 'document',
};

/** Which tab to export, each with its rows after filters (the session already holds the counts). */
function TabPicker({
  tab,
  tabCounts,
  onTab,
}: {
  tab: ResultTabKey;
  tabCounts: ResultsSession['tabCounts'];
  onTab: (tab: ResultTabKey) => void;
}) {
  const navigate = useNavigate();
  const { search } = useLocation();
  const data = RESULT_TABS.map((entry) => {
    const rows = tabCounts[entry.key];
    return { value: entry.key, label: rows === undefined ? entry.label : `${entry.label} (${formatCount(rows)})` };
  });
  return (
    <Select
      label="Tab"
      data={data}
      value={tab}
      allowDeselect={false}
      onChange={(value) => {
        if (!value) return;
        onTab(value as ResultTabKey);
        navigate(`/export/${value}${search}`, { replace: true });
      }}
      data-testid="export-tab"
    />
  );
}

function RowsPicker({ draft, rowCount }: { draft: ExportDraft; rowCount: number | null }) {
  const { selection, goto } = draft.tabState;
  return (
    <Radio.Group label="Rows" value={draft.rows} onChange={(value) => draft.setRows(value as RowsChoice)}>
      <Stack gap={6} mt={6}>
        <Radio
          value="selected"
          label={selectedRowsLabel(selection, goto ? null : rowCount)}
          description={draft.selectionExists ? undefined : 'Tick rows in the results grid to export only those.'}
          disabled={!draft.selectionExists}
          data-testid="export-rows-selected"
        />
        <Radio
          value="all"
          label={
            goto
              ? 'Whole tab (as filtered, the related rows shown)'
              : `Whole tab (as filtered${rowCount === null ? '' : `, ${countNoun(rowCount, 'row')}`})`
          }
          data-testid="export-rows-all"
        />
      </Stack>
    </Radio.Group>
  );
}

function FormatPicker({ tab, format, onChange }: { tab: ResultTabKey; format: ExportFormat; onChange: (format: ExportFormat) => void }) {
  const sdf = sdfAllowed(tab);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="export-format-label">
        Format
      </Text>
      <SegmentedControl
        aria-labelledby="export-format-label"
        value={format}
        onChange={(value) => onChange(value as ExportFormat)}
        data={EXPORT_FORMATS.map((value) => ({ value, label: FORMAT_SHORT[value], disabled: value === 'sdf' && !sdf }))}
        data-testid="export-format"
      />
      {!sdf && (
        <Text size="xs" c="dimmed" data-testid="export-sdf-unavailable">
          {SDF_NEEDS_STRUCTURES}.
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {EXPORT_FORMAT_LABELS[format]}
        {format === 'sdf' && '. One molecule record per row, with the chosen columns as its data fields.'}
      </Text>
    </Stack>
  );
}

/** The export of one results session: what to write, what it costs, and the job once started. */
export function ExportForm({
  source,
  sessionId,
  session,
  tab,
}: {
  source: ResultsScope;
  sessionId: string;
  session: ResultsSession;
  tab: ResultTabKey;
}) {
  const draft = useExportDraft(source, sessionId, tab);
  const exporter = useStartExport();
  const rowCount = session.tabCounts[tab] ?? null;
  const cost = draft.costQuery.data;
  // A tab without structures cannot be written as SDF (the choice switches when the tab changes; this covers the back button).
  const format = formatForTab(draft.format, tab);
  // While the price is being asked again (after a 409 among others) the figures on screen may be stale.
  const blocked =
    !cost || !cost.allowed || draft.costQuery.isPlaceholderData || draft.costQuery.isFetching || draft.chosenColumns.length === 0;

  // The credits the user saw: when the rows changed since, the server answers 409 rather than charge another price.
  const submit = () => cost && exporter.start({ ...draft.scope, format, columns: draft.chosenColumns, expectedCredits: cost.credits });
  const changeTab = (next: ResultTabKey) => {
    if (draft.format === 'sdf' && !sdfAllowed(next)) draft.setFormat('csv');
  };
  const status = isApiRequestError(exporter.error) ? exporter.error.status : null;

  return (
    <Stack gap="md" data-testid="export-form" data-tab={tab} data-source={source}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder radius="md" padding="md">
          <Stack gap="md">
            <TabPicker tab={tab} tabCounts={session.tabCounts} onTab={changeTab} />
            <RowsPicker draft={draft} rowCount={rowCount} />
            <FormatPicker tab={tab} format={format} onChange={draft.setFormat} />
          </Stack>
        </Card>
        <Card withBorder radius="md" padding="md">
          <QueryView query={draft.metadataQuery} skeletonRows={8}>
            {() => (
              <ColumnChecklist
                columns={draft.columns}
                chosen={draft.chosenColumns}
                onToggle={draft.toggleColumn}
                onAll={draft.allColumns}
                onNone={draft.noColumns}
                onDefaults={draft.defaultColumns}
              />
            )}
          </QueryView>
        </Card>
      </SimpleGrid>
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Title order={4}>Cost</Title>
          <ExportCost query={draft.costQuery} />
          {exporter.error && (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle size={18} />}
              title={
                status === 402
                  ? 'Not enough download credits'
                  : status === 409
                    ? 'The rows changed: check the new price'
                    : 'The export could not start'
              }
              role="alert"
              data-testid="export-error"
              withCloseButton
              onClose={exporter.reset}
            >
              {errorMessage(exporter.error)}
              {status === 409 && ' The price above was counted again; export again to use it.'}
            </Alert>
          )}
          <Group>
            {/* The same question as every export that spends credits: the price before anything is spent. */}
            <CreditQuestion
              label={`Export ${FORMAT_SHORT[format]}`}
              leftSection={<IconFileExport size={16} />}
              loading={exporter.starting}
              disabled={blocked}
              rows={cost?.rows ?? 0}
              noun={TAB_RECORD_NOUNS[tab]}
              formatLabel={CREDIT_FORMAT_LABELS[format]}
              credits={cost?.credits ?? 0}
              balance={cost?.creditBalance}
              onConfirm={submit}
              testId="export"
              buttonTestId="export-submit"
            />
          </Group>
        </Stack>
      </Card>
      {exporter.job && <ExportJobCard key={exporter.job.id} started={exporter.job} />}
    </Stack>
  );
}
