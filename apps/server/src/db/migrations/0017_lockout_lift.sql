-- An administrator can lift a login lock-out (issue 16, /admin/subscriptions): wrong passwords
-- made before this moment no longer count against the account (modules/auth/login-limiter.ts),
-- as they already do not after a password change. Nothing else is touched: the login history
-- stays as it was.
ALTER TABLE users ADD COLUMN lockout_lifted_at timestamptz;

-- migrate:down
ALTER TABLE users DROP COLUMN IF EXISTS lockout_lifted_at;
