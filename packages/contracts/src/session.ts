import { z } from 'zod';

/** Spec §9: idle timeout and logout limit. */
export const IDLE_TIMEOUT_MS = 1_800_000;
/**
 * Absolute lifetime of a login session (ASVS 3.3.2): however active, a session older than this is
 * closed at its next request and its user logs in again (12 hours, NIST SP 800-63B AAL2).
 */
export const SESSION_MAX_AGE_MS = 12 * 3_600_000;
/** Lifetime of a main or node token; the client regenerates before this runs out. */
export const TOKEN_TTL_SECONDS = 60 * 60;
/** The client regenerates its tokens when less than this is left. */
export const TOKEN_REFRESH_MARGIN_SECONDS = 5 * 60;

/**
 * Request headers of spec §7 base A. Authorization carries the node-API token, JavaAuthorization
 * the main token; either identifies the server-side session, and both must agree when both are sent.
 * Each token is accepted only in its own header (the JWT's `typ` claim says its kind).
 */
export const AUTH_HEADERS = {
  nodeToken: 'authorization',
  mainToken: 'javaauthorization',
  email: 'email',
  customToken: 'x-custom-token',
  customSession: 'x-custom-session',
} as const;

export const TokenKindSchema = z.enum(['main', 'node']);
export type TokenKind = z.infer<typeof TokenKindSchema>;

/** Claims inside both tokens; the client reads roles from them (spec §4 "Login"). */
export const TokenClaimsSchema = z.object({
  sub: z.string(),
  sid: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  typ: TokenKindSchema,
  exp: z.number(),
  iat: z.number(),
});
export type TokenClaims = z.infer<typeof TokenClaimsSchema>;

export const SessionValidateResponseSchema = z.object({
  valid: z.literal(true),
  sessionId: z.string(),
  userId: z.number().int(),
  lastActivityAt: z.string(),
  idleTimeoutMs: z.number().int(),
  tokenExpiresAt: z.string(),
});
export type SessionValidateResponse = z.infer<typeof SessionValidateResponseSchema>;

export const LastSessionTimeResponseSchema = z.object({
  /** Last activity of the current session. */
  lastActivityAt: z.string(),
  /** When the user's previous session (before this one) ended, if any. */
  previousSessionEndedAt: z.string().nullable(),
  serverTime: z.string(),
  idleTimeoutMs: z.number().int(),
});
export type LastSessionTimeResponse = z.infer<typeof LastSessionTimeResponseSchema>;

export const SessionCloseRequestSchema = z.object({
  /** Defaults to the caller's own session. */
  sessionid: z.string().optional(),
  reason: z.enum(['logout', 'idle', 'closed']).optional(),
});
export type SessionCloseRequest = z.infer<typeof SessionCloseRequestSchema>;

export const UserSessionRequestSchema = z.object({
  user_id: z.number().int(),
  sessionid: z.string(),
});
export type UserSessionRequest = z.infer<typeof UserSessionRequestSchema>;

export const DropUnloggedTablesRequestSchema = z.object({ sessionid: z.string() });
export type DropUnloggedTablesRequest = z.infer<typeof DropUnloggedTablesRequestSchema>;

export const CountResponseSchema = z.object({ closed: z.number().int() });
export type CountResponse = z.infer<typeof CountResponseSchema>;

export const DroppedResponseSchema = z.object({ dropped: z.number().int() });
export type DroppedResponse = z.infer<typeof DroppedResponseSchema>;
