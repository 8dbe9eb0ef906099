-- Authentication hardening (ASVS 4.0.3 V2, V3; docs/security.md).

-- When the password was last set: failures before it no longer count towards the login limits
-- (guesses at a replaced password are harmless), and it dates the revocation of links and sessions.
ALTER TABLE users ADD COLUMN password_changed_at timestamptz;

-- Every request for a password link (registration, forgotten password), whether or not the address
-- has an account: an audit trail for abuse, and the write that both answers do alike, so that the
-- time of the answer does not tell whether an address has an account.
CREATE TABLE link_requests (
  id           bigserial PRIMARY KEY,
  email        text NOT NULL,
  purpose      text NOT NULL CHECK (purpose IN ('register', 'forgot')),
  ip_address   text,
  requested_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX link_requests_email_idx ON link_requests (email, requested_at DESC);

-- One live link per account: issuing a link deletes the older unused ones (lookup by user).
CREATE INDEX verification_codes_user_idx ON verification_codes (user_id) WHERE used_at IS NULL;

-- migrate:down
DROP INDEX IF EXISTS verification_codes_user_idx;
DROP TABLE IF EXISTS link_requests;
ALTER TABLE users DROP COLUMN IF EXISTS password_changed_at;
