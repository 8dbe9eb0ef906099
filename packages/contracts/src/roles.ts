import { z } from 'zod';

/** Every role of spec §6, in the order the spec lists them (profile handling depends on it). */
export const ROLES = [
  'FULL_USER',
  'PARTIAL_USER',
  'EVALUATE_USER',
  'DOWNLOAD_EVALUATOR',
  'FLAT_FILE_ONLY',
  'FLAT_FILE_ADMIN',
  'GOSTAR_ADMIN',
  'SUPER_ADMIN',
] as const;

export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The three roles that may search (spec §2: "the three search roles"). */
export const SEARCH_ROLES: readonly Role[] = ['FULL_USER', 'EVALUATE_USER', 'DOWNLOAD_EVALUATOR'];
/** Roles that may export, download, and open the SAR view and analyzers home pages. */
export const EXPORT_ROLES: readonly Role[] = ['FULL_USER', 'DOWNLOAD_EVALUATOR'];
/** Roles of /dashboard and /change-password (spec §2). */
export const DASHBOARD_ROLES: readonly Role[] = [
  'FULL_USER',
  'EVALUATE_USER',
  'DOWNLOAD_EVALUATOR',
  'GOSTAR_ADMIN',
  'FLAT_FILE_ONLY',
  'FLAT_FILE_ADMIN',
];
/** Roles the admin-page guard of spec §4 looks for. */
export const ADMIN_ROLES: readonly Role[] = ['SUPER_ADMIN', 'GOSTAR_ADMIN', 'FLAT_FILE_ADMIN'];
/** Roles whose subscription may carry flat-file access (the first five of spec §6). */
export const FLAT_FILE_CAPABLE_ROLES: readonly Role[] = ROLES.slice(0, 5);

/** Demo login address of a role: lower case, `_` as `-`, at demo.test. */
export function demoEmailForRole(role: Role): string {
  return `${role.toLowerCase().replace(/_/g, '-')}@demo.test`;
}

export const DEMO_PASSWORD = 'Demo!2345';
