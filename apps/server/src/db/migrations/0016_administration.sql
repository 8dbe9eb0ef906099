-- Administration (issue 16, docs/administration.md): organisations, subscription dates, the credit
-- ledger, the audit log and the search log. Existing data is kept: organisations are made from the
-- names users typed (only administrator-subscribed users are placed in them), each balance becomes
-- an opening ledger row, and a subscription starts when it was created.

CREATE TABLE organisations (
  id            serial PRIMARY KEY,
  name          text NOT NULL CHECK (btrim(name) <> ''),
  seats         integer CHECK (seats IS NULL OR seats > 0),
  contact_email text,
  notes         text NOT NULL DEFAULT '',
  active        boolean NOT NULL DEFAULT true,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX organisations_name_idx ON organisations (lower(name));

-- users.organisation stays: the name a user typed at registration. organisation_id is the client
-- an administrator placed them in, and what every administration page reads.
ALTER TABLE users ADD COLUMN organisation_id integer REFERENCES organisations(id) ON DELETE SET NULL;
INSERT INTO organisations (name)
  SELECT DISTINCT ON (lower(btrim(organisation))) btrim(organisation)
  FROM users WHERE organisation IS NOT NULL AND btrim(organisation) <> ''
  ORDER BY lower(btrim(organisation)), btrim(organisation);
-- A typed name proves nothing: anyone may register as "Acme" and would then see Acme's members on
-- the client dashboard. Only users an administrator subscribed (a role other than EVALUATE_USER,
-- the only one self-registration grants) are placed in the organisation of their name; the others
-- stay outside any organisation until an administrator places them.
UPDATE users u SET organisation_id = o.id FROM organisations o
  WHERE lower(btrim(u.organisation)) = lower(o.name)
    AND EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = u.id AND s.role_name <> 'EVALUATE_USER');
CREATE INDEX users_organisation_idx ON users (organisation_id);

-- A subscription runs from start_date to end_date (status is derived from the dates). Ending one
-- early sets end_date to the moment and stamps ended_at/ended_by.
ALTER TABLE subscriptions ADD COLUMN start_date timestamptz;
UPDATE subscriptions SET start_date = LEAST(created_at, end_date);
ALTER TABLE subscriptions ALTER COLUMN start_date SET NOT NULL;
ALTER TABLE subscriptions ALTER COLUMN start_date SET DEFAULT now();
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_period CHECK (end_date >= start_date);
ALTER TABLE subscriptions ADD COLUMN ended_at timestamptz;
ALTER TABLE subscriptions ADD COLUMN ended_by integer REFERENCES users(id) ON DELETE SET NULL;
CREATE INDEX subscriptions_end_idx ON subscriptions (end_date);

-- Every credit movement. users.credit_balance is the running sum, written in the same transaction
-- as the row (the user row is locked first), so balance = SUM(delta) always; balance_after
-- records it per row for the ledger view.
CREATE TABLE credit_ledger (
  id            bigserial PRIMARY KEY,
  user_id       integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  delta         integer NOT NULL CHECK (delta <> 0),
  kind          text NOT NULL CHECK (kind IN ('opening', 'grant', 'export', 'refund', 'adjustment')),
  reason        text NOT NULL DEFAULT '',
  actor_id      integer REFERENCES users(id) ON DELETE SET NULL,
  export_job_id bigint REFERENCES export_jobs(id) ON DELETE SET NULL,
  balance_after integer NOT NULL CHECK (balance_after >= 0),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_ledger_user_idx ON credit_ledger (user_id, id DESC);
CREATE INDEX credit_ledger_created_idx ON credit_ledger (created_at);
INSERT INTO credit_ledger (user_id, delta, kind, reason, balance_after)
  SELECT id, credit_balance, 'opening', 'Balance before the ledger', credit_balance FROM users WHERE credit_balance > 0;

-- Every administrative change: who, when, what, before -> after.
CREATE TABLE audit_log (
  id           bigserial PRIMARY KEY,
  actor_id     integer REFERENCES users(id) ON DELETE SET NULL,
  -- Kept as text so the trail survives the actor's account.
  actor_email  text NOT NULL,
  action       text NOT NULL,
  target_type  text NOT NULL,
  target_id    text,
  target_label text,
  before       jsonb,
  after        jsonb,
  ip_address   text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_created_idx ON audit_log (created_at DESC, id DESC);
CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, created_at DESC);

-- Every search run (counts), for the trackers and the usage dashboards.
CREATE TABLE search_log (
  id                bigserial PRIMARY KEY,
  user_id           integer REFERENCES users(id) ON DELETE SET NULL,
  search_session_id text,
  summary           text NOT NULL,
  counts            jsonb,
  duration_ms       integer NOT NULL CHECK (duration_ms >= 0),
  failed            boolean NOT NULL DEFAULT false,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX search_log_created_idx ON search_log (created_at DESC);
CREATE INDEX search_log_user_idx ON search_log (user_id, created_at DESC);

-- The usage dashboards read logins, exports and downloads by date.
CREATE INDEX login_attempts_date_idx ON login_attempts (login_date);
CREATE INDEX download_logs_created_idx ON download_logs (created_at);
CREATE INDEX export_jobs_created_idx ON export_jobs (created_at);

-- migrate:down
DROP INDEX IF EXISTS export_jobs_created_idx;
DROP INDEX IF EXISTS download_logs_created_idx;
DROP INDEX IF EXISTS login_attempts_date_idx;
DROP TABLE IF EXISTS search_log;
DROP TABLE IF EXISTS audit_log;
DROP TABLE IF EXISTS credit_ledger;
DROP INDEX IF EXISTS subscriptions_end_idx;
ALTER TABLE subscriptions DROP COLUMN IF EXISTS ended_by;
ALTER TABLE subscriptions DROP COLUMN IF EXISTS ended_at;
ALTER TABLE subscriptions DROP CONSTRAINT IF EXISTS subscriptions_period;
ALTER TABLE subscriptions DROP COLUMN IF EXISTS start_date;
DROP INDEX IF EXISTS users_organisation_idx;
ALTER TABLE users DROP COLUMN IF EXISTS organisation_id;
DROP TABLE IF EXISTS organisations;
