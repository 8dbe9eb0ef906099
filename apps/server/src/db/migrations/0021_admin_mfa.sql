-- Second factor for the admin roles (ASVS 4.0.3 V2.8, docs/security.md "Second factor"): a TOTP
-- authenticator (RFC 6238) per account, single-use recovery codes, the sessions that passed the
-- second step and the wrong codes counted for the attempt limit. Nothing existing changes: an
-- admin without a row here is asked to enrol at the next admin-only call.

-- The authenticator of an account. The secret is stored encrypted (AES-256-GCM, key from
-- MFA_SECRET_KEY or app_settings); confirmed_at is set by the first good code, and last_step is
-- the newest 30-second step accepted, so that a code cannot be used twice (replay).
CREATE TABLE user_mfa (
  user_id          integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret_encrypted text NOT NULL,
  confirmed_at     timestamptz,
  last_step        integer,
  last_verified_at timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now()
);

-- Recovery codes: only a hash is stored; each works once.
CREATE TABLE mfa_recovery_codes (
  id         bigserial PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash  text NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mfa_recovery_codes_user_idx ON mfa_recovery_codes (user_id) WHERE used_at IS NULL;

-- Wrong codes (TOTP or recovery), counted per account for the attempt limit.
CREATE TABLE mfa_failures (
  id         bigserial PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  ip_address text,
  failed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mfa_failures_user_idx ON mfa_failures (user_id, failed_at DESC);

-- When the session passed the second step; null until then (and for accounts that need none).
ALTER TABLE user_sessions ADD COLUMN mfa_passed_at timestamptz;
