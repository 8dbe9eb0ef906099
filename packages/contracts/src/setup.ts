import { z } from 'zod';
import { PasswordSchema } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';

/**
 * The first super administrator of a server without demo accounts (docs/operations.md "Deploying on
 * a network"): while no super administrator can log in, each start prints a one-time set-up token
 * on the server's console; whoever holds it makes the first super administrator at /setup. The token
 * works once, and only while no super administrator can log in: someone who merely reaches the
 * server cannot take it over.
 */

/** Where the console's link points; the token rides in the fragment, which no server or proxy log sees. */
export const SETUP_PAGE_PATH = '/setup';

export const SetupStatusSchema = z.object({
  /** True while no super administrator can log in: the page asks for the token then. */
  required: z.boolean(),
});
export type SetupStatus = z.infer<typeof SetupStatusSchema>;

export const FirstSuperAdminRequestSchema = z.object({
  token: z.string().trim().min(1, 'Paste the set-up token from the server console.').max(200),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email('Enter a valid e-mail address.')),
  firstName: z.string().trim().min(1, 'Enter a first name.').max(100),
  lastName: z.string().trim().min(1, 'Enter a last name.').max(100),
  password: PasswordSchema,
});
export type FirstSuperAdminRequest = z.infer<typeof FirstSuperAdminRequestSchema>;

export const FirstSuperAdminResultSchema = z.object({ email: z.string(), message: z.string() });
export type FirstSuperAdminResult = z.infer<typeof FirstSuperAdminResultSchema>;

export const setupEndpoints = {
  status: defineEndpoint({
    method: 'GET',
    path: '/api/pub/setup',
    access: 'public',
    summary: 'Whether the server waits for its first super administrator (set-up token printed on its console).',
    response: SetupStatusSchema,
  }),
  createFirstSuperAdmin: defineEndpoint({
    method: 'POST',
    path: '/api/pub/setup',
    access: 'public',
    summary: 'Makes the first super administrator with the one-time set-up token from the server console (works once).',
    body: FirstSuperAdminRequestSchema,
    response: FirstSuperAdminResultSchema,
  }),
};
