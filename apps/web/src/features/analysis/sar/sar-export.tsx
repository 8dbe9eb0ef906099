import { sarEndpoints } from '@kb/contracts/sar';
import { callApi } from '../../../app/api-client.ts';
import { CreditExport } from '../../export/credit-export.tsx';
import { runBody } from './sar-queries.ts';
import type { SarRun } from './sar-store.ts';

export interface SarExportProps {
  sessionId: string;
  /** The table on screen as it was asked for. */
  run: SarRun;
  /** Compounds in the table: one credit each. */
  compounds: number;
}

/**
 * Export of the SAR table (XLSX with the R-groups as SMILES, SDF with R-group fields) through the
 * export jobs and credits: the price, one question, then the file (features/export/credit-export.tsx).
 */
export function SarExport({ sessionId, run, compounds }: SarExportProps) {
  return (
    <CreditExport
      formats={['xlsx', 'sdf'] as const}
      rows={compounds}
      noun="compound"
      note="R-groups are written as SMILES (Excel) or as data fields of each molecule (SDF); every endpoint and difference column of the table is included."
      start={(format, expectedCredits) =>
        callApi(sarEndpoints.sarExport, { body: { sessionid: sessionId, ...runBody(run), format, expectedCredits } })
      }
      testId="sar-export"
    />
  );
}
