-- Exports, downloads and credits; flat-file datasets and requests for data (issue 7, docs/exports.md).

-- Files live in the database, in 1 MiB chunks: any API process serves any file (ARCHITECTURE.md
-- "API processes are stateless"), and a backup of the database is a backup of the files.
CREATE TABLE stored_files (
  id           bigserial PRIMARY KEY,
  purpose      text NOT NULL CHECK (purpose IN ('export', 'dataset')),
  -- The user an export file belongs to; null for datasets (their audience is datasets.roles).
  owner_id     integer REFERENCES users(id) ON DELETE CASCADE,
  file_name    text NOT NULL,
  content_type text NOT NULL,
  byte_size    bigint NOT NULL DEFAULT 0,
  -- False while it is being written: never served half-written.
  complete     boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz
);
CREATE INDEX stored_files_expiry_idx ON stored_files (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE stored_file_chunks (
  file_id bigint NOT NULL REFERENCES stored_files(id) ON DELETE CASCADE,
  seq     integer NOT NULL,
  data    bytea NOT NULL,
  PRIMARY KEY (file_id, seq)
);

-- One export: its scope, price and progress. Credits are charged when it is created (in the same
-- transaction) and returned when it fails; `refunded` makes the return happen once.
CREATE TABLE export_jobs (
  id                bigserial PRIMARY KEY,
  user_id           integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- Not a foreign key: a search session may expire; a job that finds it gone fails and refunds.
  search_session_id uuid NOT NULL,
  set_id            bigint NOT NULL,
  tab               text NOT NULL,
  format            text NOT NULL CHECK (format IN ('csv', 'xlsx', 'sdf')),
  columns           jsonb NOT NULL,
  row_count         integer NOT NULL CHECK (row_count > 0),
  credits           integer NOT NULL CHECK (credits >= 0),
  status            text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  rows_written      integer NOT NULL DEFAULT 0,
  attempts          integer NOT NULL DEFAULT 0,
  -- The current claim: every write of a running job is conditional on it, so a process presumed
  -- dead cannot finish or fail a job another process has taken over.
  claim             uuid,
  heartbeat_at      timestamptz,
  file_id           bigint REFERENCES stored_files(id) ON DELETE SET NULL,
  file_name         text NOT NULL,
  error             text,
  refunded          boolean NOT NULL DEFAULT false,
  created_at        timestamptz NOT NULL DEFAULT now(),
  finished_at       timestamptz
);
CREATE INDEX export_jobs_user_idx ON export_jobs (user_id, id DESC);
CREATE INDEX export_jobs_open_idx ON export_jobs (id) WHERE status IN ('queued', 'running');

-- The row ids an export was priced for, fixed when it starts: later filters or re-runs of the
-- search do not change what was paid for.
CREATE TABLE export_job_rows (
  job_id bigint NOT NULL REFERENCES export_jobs(id) ON DELETE CASCADE,
  id     bigint NOT NULL,
  PRIMARY KEY (job_id, id)
);

CREATE TABLE datasets (
  id           bigserial PRIMARY KEY,
  dataset_type text NOT NULL,
  description  text NOT NULL DEFAULT '',
  -- Subscription roles the file is meant for (spec §6 flat-file access is per role).
  roles        text[] NOT NULL,
  file_id      bigint NOT NULL UNIQUE REFERENCES stored_files(id) ON DELETE CASCADE,
  uploaded_by  integer REFERENCES users(id) ON DELETE SET NULL,
  uploaded_at  timestamptz NOT NULL DEFAULT now()
);

-- Download history (spec exportlogs/export): every export and every flat-file download.
CREATE TABLE download_logs (
  id          bigserial PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('export', 'dataset')),
  export_id   bigint REFERENCES export_jobs(id) ON DELETE SET NULL,
  dataset_id  bigint REFERENCES datasets(id) ON DELETE SET NULL,
  description text NOT NULL,
  file_name   text NOT NULL,
  file_size   bigint,
  credits     integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX download_logs_user_idx ON download_logs (user_id, id DESC);

-- Spec §3 "Data requests".
CREATE TABLE data_requests (
  id           bigserial PRIMARY KEY,
  user_id      integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  dataset_type text NOT NULL,
  description  text NOT NULL,
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'in_progress', 'fulfilled', 'rejected', 'cancelled')),
  cancelled_by text,
  requested_on timestamptz NOT NULL DEFAULT now(),
  updated_on   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX data_requests_user_idx ON data_requests (user_id, id DESC);

-- migrate:down
DROP TABLE IF EXISTS data_requests, download_logs, datasets, export_job_rows, export_jobs, stored_file_chunks, stored_files;
