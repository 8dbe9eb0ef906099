import { Alert, Badge, Button, FileButton, Group, List, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileUpload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { UserImportReport } from '@kb/contracts/admin-accounts';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { DataTable } from '../../../app/ui/data-table.tsx';
import type { DataColumn } from '../../../app/ui/data-table.tsx';
import { bytesToBase64 } from '../../search/uploads/upload-terms.ts';
import { saveBlob } from '../../../app/ui/save-blob.ts';
import { useRefreshAccounts } from './account-queries.ts';
import { checkImportFile, IMPORT_COLUMNS, importSummary, importTemplateCsv } from './import-template.ts';

type ReportRow = UserImportReport['rows'][number];

const STATUS_COLOR: Record<ReportRow['status'], string> = { created: 'green', ready: 'blue', error: 'red' };

const REPORT_COLUMNS: readonly DataColumn<ReportRow>[] = [
  { key: 'line', header: 'Line', align: 'right', cell: (row) => row.line },
  { key: 'email', header: 'E-mail', cell: (row) => row.email || '—' },
  {
    key: 'status',
    header: 'Status',
    cell: (row) => (
      <Badge color={STATUS_COLOR[row.status]} variant="light">
        {row.status}
      </Badge>
    ),
  },
  { key: 'message', header: 'Message', cell: (row) => row.message },
];

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function sendFile(file: File, dryRun: boolean): Promise<UserImportReport> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return callApi(adminAccountEndpoints.importUsers, { body: { fileName: file.name, contentBase64: bytesToBase64(bytes), dryRun } });
}

/**
 * Bulk onboarding: choose a CSV or XLSX file, check it (nothing is created), then create every
 * user of it. Either all rows are created or none; the report says row by row.
 */
export function BulkImportPanel() {
  const refresh = useRefreshAccounts();
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [report, setReport] = useState<{ report: UserImportReport; dryRun: boolean } | null>(null);
  const resetRef = useRef<() => void>(null);
  const run = useMutation({
    mutationFn: ({ chosen, dryRun }: { chosen: File; dryRun: boolean }) => sendFile(chosen, dryRun),
    onSuccess: (result, { dryRun }) => {
      setReport({ report: result, dryRun });
      if (!dryRun && result.created > 0) {
        notifications.show({ color: 'green', message: importSummary(result, false) });
        refresh();
      }
    },
  });

  const choose = (chosen: File | null) => {
    resetRef.current?.();
    if (!chosen) return;
    const problem = checkImportFile(chosen);
    setFileProblem(problem);
    setFile(problem ? null : chosen);
    setReport(null);
    run.reset();
  };
  // "Create" follows a clean check of the same file (a created file is not sent twice).
  const checkedClean = report !== null && report.dryRun && report.report.errors === 0;

  return (
    <Stack gap="md" maw={960}>
      <Text size="sm">
        A file with a header row — {IMPORT_COLUMNS.join(', ')} — and one user a row. Role is a role code (FULL_USER, EVALUATE_USER, …),
        dates are YYYY-MM-DD, contract is the contract reference (may be left empty), invite is yes or no. Check the file first: if any row
        is wrong nothing is created.
      </Text>
      <Group gap="sm">
        <FileButton accept={ACCEPT} resetRef={resetRef} onChange={choose}>
          {(props) => (
            <Button {...props} leftSection={<IconFileUpload size={16} />} variant="light" data-testid="import-choose">
              Choose a file
            </Button>
          )}
        </FileButton>
        <Button
          variant="subtle"
          leftSection={<IconDownload size={16} />}
          onClick={() => saveBlob(new Blob([importTemplateCsv()], { type: 'text/csv;charset=utf-8' }), 'user-onboarding-template.csv')}
          data-testid="import-template"
        >
          Download the CSV template
        </Button>
      </Group>
      {fileProblem && (
        <Alert color="red" variant="light" role="alert">
          {fileProblem}
        </Alert>
      )}
      {file && (
        <Group gap="sm">
          <Text size="sm" fw={500}>
            {file.name}
          </Text>
          <Button
            onClick={() => run.mutate({ chosen: file, dryRun: true })}
            loading={run.isPending && run.variables.dryRun}
            disabled={run.isPending}
            data-testid="import-check"
          >
            Check
          </Button>
          <Button
            color="green"
            onClick={() => run.mutate({ chosen: file, dryRun: false })}
            loading={run.isPending && !run.variables.dryRun}
            disabled={run.isPending || !checkedClean}
            title={checkedClean ? undefined : 'Check the file first'}
            data-testid="import-create"
          >
            Create users
          </Button>
        </Group>
      )}
      {run.isError && (
        <Alert color="red" variant="light" role="alert" title="The file was not read">
          {errorMessage(run.error)}
        </Alert>
      )}
      {report && (
        <Stack gap="xs" data-testid="import-report">
          <Alert color={report.report.errors > 0 ? 'red' : 'green'} variant="light" role="status">
            {importSummary(report.report, report.dryRun)}
          </Alert>
          {report.report.rows.length > 0 ? (
            <DataTable
              columns={REPORT_COLUMNS}
              rows={report.report.rows}
              rowKey={(row) => `${row.line}-${row.email}`}
              rowData={(row) => ({ 'data-status': row.status })}
              minWidth={640}
              verticalSpacing={4}
            />
          ) : (
            <List size="sm">
              <List.Item>The file has no user rows under its header.</List.Item>
            </List>
          )}
        </Stack>
      )}
    </Stack>
  );
}
