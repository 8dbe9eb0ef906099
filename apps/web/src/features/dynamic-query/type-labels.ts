import type { DqColumnType } from '@kb/contracts/dynamic-query';

/** A column type in words, beside its label. */
export const TYPE_LABELS: Record<DqColumnType, string> = {
  text: 'text',
  number: 'number',
  integer: 'whole number',
  date: 'date',
  boolean: 'yes/no',
};
