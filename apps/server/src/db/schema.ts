import type { SearchTables, SessionRunColumns } from './tables/search-tables.ts';
import type { LookupTables } from './tables/lookup-tables.ts';
import type { TreeTables } from './tables/tree-tables.ts';
import type { UploadTables } from './tables/upload-tables.ts';
import type { ChemistryTables } from './tables/chemistry-tables.ts';
import type { ResultsTables, SessionResultColumns } from './tables/results-tables.ts';
import type { ExportTables } from './tables/export-tables.ts';
import type { SarTables } from './tables/sar-tables.ts';
import type { AuditTables } from './tables/audit-tables.ts';
import type { CreditTables } from './tables/credit-tables.ts';
import type { AdminTables } from './tables/admin-tables.ts';
import type { MfaTables } from './tables/mfa-tables.ts';
import type { DynamicQueryTables } from './tables/dq-tables.ts';
import type { WorkspaceTables } from './tables/workspace-tables.ts';
import type { ColumnType, Generated } from 'kysely';
import type { KnowledgeBaseTables } from './kb-schema.ts';

/** Timestamps come back as Date, may be written as Date or ISO string, and default in SQL. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

interface AppSettingsTable {
  key: string;
  value: string;
}

interface UsersTable {
  id: Generated<number>;
  user_hash_id: Generated<string>;
  email: string;
  password_hash: string | null;
  first_name: Generated<string>;
  last_name: Generated<string>;
  /** The name typed at registration; organisation_id is the client an administrator placed them in (0016). */
  organisation: string | null;
  organisation_id: number | null;
  is_new_user: Generated<boolean>;
  active: Generated<boolean>;
  credit_balance: Generated<number>;
  created_at: Timestamp;
  /** When the password was last set (0010); null for passwords set before that migration. */
  password_changed_at: NullableTimestamp;
  /** When an administrator last lifted a login lock-out (0017): earlier wrong passwords stop counting. */
  lockout_lifted_at: NullableTimestamp;
}

interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  role_name: string;
  contract_id: string;
  end_date: ColumnType<Date, Date | string, Date | string>;
  having_flat_file_access: Generated<boolean>;
  position: Generated<number>;
  created_at: Timestamp;
  /** 0016: the period is start_date..end_date; ending early sets end_date and stamps ended_at/by. */
  start_date: Timestamp;
  ended_at: NullableTimestamp;
  ended_by: number | null;
}

interface UserSessionsTable {
  id: Generated<string>;
  user_id: number;
  created_at: Timestamp;
  last_activity_at: Timestamp;
  closed_at: NullableTimestamp;
  close_reason: string | null;
  ip_address: string | null;
  user_agent: string | null;
  /** When the session passed the second factor (0021); null until then and for accounts without one. */
  mfa_passed_at: NullableTimestamp;
}

interface LoginAttemptsTable {
  id: Generated<string>;
  user_id: number | null;
  username: string;
  ip_address: string | null;
  login_date: Timestamp;
  logout_date: NullableTimestamp;
  failed: boolean;
  failure_reason: string | null;
  session_id: string | null;
}

interface VerificationCodesTable {
  code_hash: string;
  user_id: number;
  purpose: 'register' | 'reset';
  created_at: Timestamp;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: NullableTimestamp;
}

/** Requests for a password link, with or without an account behind the address (0010). */
interface LinkRequestsTable {
  id: Generated<string>;
  email: string;
  purpose: 'register' | 'forgot';
  ip_address: string | null;
  requested_at: Timestamp;
}

interface OutboxTable {
  id: Generated<string>;
  recipient: string;
  subject: string;
  body: string;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
  error: string | null;
}

interface NotificationSettingsTable {
  id: Generated<number>;
  user_id: number;
  notification_system_email: Generated<boolean>;
  notification_database_email: Generated<boolean>;
  is_notification_email: Generated<boolean>;
  updated_at: Timestamp;
}

interface NotificationsTable {
  id: Generated<string>;
  user_id: number;
  title: string;
  body: Generated<string>;
  created_at: Timestamp;
  read_at: NullableTimestamp;
  /** 0026: `message` or `alert`; an alert names its saved search and its window of loads (since_load, load_id]. */
  kind: Generated<string>;
  link: string | null;
  saved_criteria_id: number | null;
  since_load: ColumnType<number | string | null, number | null | undefined, number | null>;
  load_id: ColumnType<number | string | null, number | null | undefined, number | null>;
  counts: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface SearchSessionsTable extends SessionResultColumns, SessionRunColumns {
  id: string;
  user_id: number;
  user_session_id: string | null;
  created_at: Timestamp;
  /** Numeric key of the materialised id sets (migration 0003). */
  set_id: Generated<number>;
  kind: Generated<string>;
  criteria: ColumnType<unknown, string | null | undefined, string | null>;
  criteria_hash: string | null;
  /** new → running → ready | failed */
  status: Generated<string>;
  counts: ColumnType<unknown, string | null | undefined, string | null>;
  summary: string | null;
  error: string | null;
  /** 0026: a session opened from an alert holds only rows of loads (new_since_load, new_until_load]. */
  new_since_load: ColumnType<number | string | null, number | null | undefined, number | null>;
  new_until_load: ColumnType<number | string | null, number | null | undefined, number | null>;
  last_used_at: Timestamp;
}

/** The one Kysely database interface: add a table here when a migration adds it. */
export interface Database
  extends KnowledgeBaseTables,
    SearchTables,
    LookupTables,
    TreeTables,
    UploadTables,
    ChemistryTables,
    ResultsTables,
    ExportTables,
    SarTables,
    AuditTables,
    CreditTables,
    AdminTables,
    MfaTables,
    DynamicQueryTables,
    WorkspaceTables {
  app_settings: AppSettingsTable;
  users: UsersTable;
  subscriptions: SubscriptionsTable;
  user_sessions: UserSessionsTable;
  login_attempts: LoginAttemptsTable;
  verification_codes: VerificationCodesTable;
  link_requests: LinkRequestsTable;
  outbox: OutboxTable;
  notification_settings: NotificationSettingsTable;
  notifications: NotificationsTable;
  search_sessions: SearchSessionsTable;
}
