import { useEffect } from 'react';
import { TOKEN_REFRESH_MARGIN_SECONDS } from '@kb/contracts/session';
import { regenerateTokens } from '../features/auth/auth-service.ts';
import { useSessionStore } from '../app/stores/session-store.ts';

/** Milliseconds until the tokens should be regenerated (the margin before expiry), never negative. */
export function refreshDelayMs(tokenExpiresAt: string, now: number = Date.now()): number | null {
  const expires = Date.parse(tokenExpiresAt);
  if (!Number.isFinite(expires)) return null;
  return Math.max(0, expires - TOKEN_REFRESH_MARGIN_SECONDS * 1000 - now);
}

/** Spec §4: regenerate the token before it expires; a failed regeneration is handled by the API client. */
export function useTokenRefresh(): void {
  const tokenExpiresAt = useSessionStore((state) => (state.isLogin ? state.tokenExpiresAt : null));
  useEffect(() => {
    if (!tokenExpiresAt) return undefined;
    const delay = refreshDelayMs(tokenExpiresAt);
    if (delay === null) return undefined;
    const timer = setTimeout(() => {
      regenerateTokens().catch(() => {
        // A 401 "token is missing" already ended the session; other failures retry at the next load.
      });
    }, delay);
    return () => clearTimeout(timer);
  }, [tokenExpiresAt]);
}
