import type { DqQuery } from '@kb/contracts/dynamic-query';
import { DQ_LIMITS, dynamicQueryEndpoints } from '@kb/contracts/dynamic-query';
import type { ExportFormat } from '@kb/contracts/exports';
import { callApi } from '../../app/api-client.ts';
import { formatCount } from '../../app/format/count-format.ts';
import { CreditExport } from '../export/credit-export.tsx';

/** Export of every row of the query that ran, through the export jobs and credits (features/export/credit-export.tsx). */
export function DqExport({ query, rows, capped, hasStructure }: { query: DqQuery; rows: number; capped: boolean; hasStructure: boolean }) {
  const formats: readonly ExportFormat[] = hasStructure ? ['csv', 'xlsx', 'sdf'] : ['csv', 'xlsx'];
  const tooMany = capped || rows > DQ_LIMITS.maxExportRows;
  return (
    <CreditExport
      formats={formats}
      rows={rows}
      noun="row"
      refusal={
        tooMany ? `One dynamic-query export holds at most ${formatCount(DQ_LIMITS.maxExportRows)} rows: add a filter to export.` : null
      }
      start={(format, expectedCredits) => callApi(dynamicQueryEndpoints.export, { body: { ...query, format, expectedCredits } })}
      testId="dq-export"
    />
  );
}
