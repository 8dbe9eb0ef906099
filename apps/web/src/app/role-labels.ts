import type { Role } from '@kb/contracts/roles';

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
