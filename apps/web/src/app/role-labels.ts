import type { Role } from '@kb/contracts/roles';
import { isRole } from '@kb/contracts/roles';

/** Human names of the roles of spec §6. */
export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  FULL_USER: 'Full user',
  PARTIAL_USER: 'Partial user',
  EVALUATE_USER: 'Evaluation user',
  DOWNLOAD_EVALUATOR: 'Download evaluator',
  FLAT_FILE_ONLY: 'Flat-file only',
  FLAT_FILE_ADMIN: 'Flat-file admin',
  GOSTAR_ADMIN: 'KB admin',
  SUPER_ADMIN: 'Super admin',
};

/**
 * The human name of a role code as the server sends it (a subscription's `roleName` is a plain
 * string): every page shows the same names, and a code the app does not know is shown as it is.
 */
export function roleLabel(code: string): string {
  return isRole(code) ? ROLE_LABELS[code] : code;
}
