import type { ColumnType, Generated } from 'kysely';
import type { ExportFormat, ExportSource, ExportStatus } from '@kb/contracts/exports';
import type { ResultTabKey } from '@kb/contracts/result-tabs';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Tables of exports (bigint ids are parsed to numbers, db/database.ts), files, datasets and requests (migration 0009_exports.sql). */
export interface ExportTables {
  stored_files: {
    id: Generated<number>;
    purpose: 'export' | 'dataset';
    owner_id: number | null;
    file_name: string;
    content_type: string;
    byte_size: ColumnType<number, number | undefined, number>;
    complete: Generated<boolean>;
    created_at: Timestamp;
    expires_at: NullableTimestamp;
  };
  stored_file_chunks: { file_id: number; seq: number; data: Uint8Array };
  export_jobs: {
    id: Generated<number>;
    user_id: number;
    /** NULL only for a dynamic query's export (migration 0027): it comes from no search session. */
    search_session_id: string | null;
    set_id: number | null;
    // Written only from the contract's enums (the request is validated first), so read back as them.
    tab: ResultTabKey;
    format: ExportFormat;
    /** The chosen column keys: jsonb, parsed by the driver; written as JSON text. */
    columns: ColumnType<string[], string, string>;
    row_count: number;
    credits: number;
    status: ExportStatus;
    rows_written: Generated<number>;
    attempts: Generated<number>;
    claim: string | null;
    heartbeat_at: NullableTimestamp;
    file_id: number | null;
    file_name: string;
    error: string | null;
    refunded: Generated<boolean>;
    created_at: Timestamp;
    finished_at: NullableTimestamp;
    /** Migration 0013: 'sar' jobs write the SAR table kept in `payload` instead of a tab's rows. */
    source: ColumnType<ExportSource, ExportSource | undefined, ExportSource>;
    payload: ColumnType<unknown, string | null | undefined, string | null>;
  };
  export_job_rows: { job_id: number; id: number };
  datasets: {
    id: Generated<number>;
    dataset_type: string;
    description: Generated<string>;
    roles: string[];
    file_id: number;
    uploaded_by: number | null;
    uploaded_at: Timestamp;
  };
  download_logs: {
    id: Generated<number>;
    user_id: number;
    kind: 'export' | 'dataset';
    export_id: number | null;
    dataset_id: number | null;
    description: string;
    file_name: string;
    file_size: number | null;
    credits: Generated<number>;
    created_at: Timestamp;
  };
  data_requests: {
    id: Generated<number>;
    user_id: number;
    dataset_type: string;
    description: string;
    status: Generated<string>;
    cancelled_by: string | null;
    requested_on: Timestamp;
    updated_on: Timestamp;
  };
}
