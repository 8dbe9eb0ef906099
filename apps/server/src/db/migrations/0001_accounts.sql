-- Accounts, subscriptions, sessions and login history (issue: foundation).

CREATE TABLE app_settings (
  key   text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE users (
  id             serial PRIMARY KEY,
  user_hash_id   uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  email          text NOT NULL UNIQUE CHECK (email = lower(email)),
  password_hash  text,
  first_name     text NOT NULL DEFAULT '',
  last_name      text NOT NULL DEFAULT '',
  organisation   text,
  is_new_user    boolean NOT NULL DEFAULT true,
  active         boolean NOT NULL DEFAULT true,
  -- Download credits (spec §3 creditbalance); never negative, spent atomically by exports.
  credit_balance integer NOT NULL DEFAULT 0 CHECK (credit_balance >= 0),
  created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE subscriptions (
  id                      serial PRIMARY KEY,
  user_id                 integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role_name               text NOT NULL,
  contract_id             text NOT NULL,
  end_date                timestamptz NOT NULL,
  having_flat_file_access boolean NOT NULL DEFAULT false,
  -- Order of the profile's subscriptionDetailsList: the current role is the last recognised one.
  position                integer NOT NULL DEFAULT 0,
  created_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_user_idx ON subscriptions (user_id, position);

CREATE TABLE user_sessions (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id          integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_activity_at timestamptz NOT NULL DEFAULT now(),
  closed_at        timestamptz,
  close_reason     text,
  ip_address       text,
  user_agent       text
);
CREATE INDEX user_sessions_open_idx ON user_sessions (user_id) WHERE closed_at IS NULL;

CREATE TABLE login_attempts (
  id             bigserial PRIMARY KEY,
  user_id        integer REFERENCES users(id) ON DELETE SET NULL,
  username       text NOT NULL,
  ip_address     text,
  login_date     timestamptz NOT NULL DEFAULT now(),
  logout_date    timestamptz,
  failed         boolean NOT NULL,
  failure_reason text,
  session_id     uuid REFERENCES user_sessions(id) ON DELETE SET NULL
);
CREATE INDEX login_attempts_username_idx ON login_attempts (username, login_date DESC);
CREATE INDEX login_attempts_ip_idx ON login_attempts (ip_address, login_date DESC);
CREATE INDEX login_attempts_user_idx ON login_attempts (user_id, login_date DESC);
CREATE INDEX login_attempts_session_idx ON login_attempts (session_id);

-- One-time codes of /pub/account/verify/{code}; only a hash of the code is stored.
CREATE TABLE verification_codes (
  code_hash  text PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose    text NOT NULL CHECK (purpose IN ('register', 'reset')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);

-- E-mails to send; kept so that links can be found without SMTP.
CREATE TABLE outbox (
  id         bigserial PRIMARY KEY,
  recipient  text NOT NULL,
  subject    text NOT NULL,
  body       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at    timestamptz,
  error      text
);

CREATE TABLE notification_settings (
  id                          serial PRIMARY KEY,
  user_id                     integer NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  notification_system_email   boolean NOT NULL DEFAULT true,
  notification_database_email boolean NOT NULL DEFAULT true,
  is_notification_email       boolean NOT NULL DEFAULT true,
  updated_at                  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE notifications (
  id         bigserial PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title      text NOT NULL,
  body       text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at    timestamptz
);
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;

-- A search session (spec "sessionid"): its result sets are materialised against this id.
CREATE TABLE search_sessions (
  id              text PRIMARY KEY,
  user_id         integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  user_session_id uuid REFERENCES user_sessions(id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX search_sessions_user_idx ON search_sessions (user_id);

-- migrate:down
DROP TABLE search_sessions;
DROP TABLE notifications;
DROP TABLE notification_settings;
DROP TABLE outbox;
DROP TABLE verification_codes;
DROP TABLE login_attempts;
DROP TABLE user_sessions;
DROP TABLE subscriptions;
DROP TABLE users;
DROP TABLE app_settings;
