import type { DatasetType, DatasetUploadQuery } from '@kb/contracts/datasets';
import { FLAT_FILE_EXTENSIONS, FLAT_FILE_MAX_BYTES, datasetFileNameProblem } from '@kb/contracts/datasets';
import type { Role } from '@kb/contracts/roles';
import { formatBytes } from '../../app/format/display-format.ts';

/**
 * Checks of a flat file before it is sent. The server checks the same limits; checking here first
 * spares the administrator sending 256 MiB only to be told the name was wrong.
 */

/** The extension of a file name, lower case, without the dot ("" when none). */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || dot === name.length - 1 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The `accept` attribute of the file picker: the allowed extensions. */
export const FLAT_FILE_ACCEPT = FLAT_FILE_EXTENSIONS.map((extension) => `.${extension}`).join(',');

/** Why a file cannot be uploaded as a dataset, or null when it can. */
export function uploadProblem(file: { name: string; size: number }): string | null {
  const nameProblem = datasetFileNameProblem(file.name);
  if (nameProblem) return nameProblem;
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > FLAT_FILE_MAX_BYTES)
    return `“${file.name}” (${formatBytes(file.size)}) is over the ${formatBytes(FLAT_FILE_MAX_BYTES)} a dataset may be.`;
  const extension = fileExtension(file.name);
  if (!(FLAT_FILE_EXTENSIONS as readonly string[]).includes(extension)) {
    return `“${file.name}” is not a dataset file. Upload one of: ${FLAT_FILE_EXTENSIONS.map((allowed) => `.${allowed}`).join(', ')}.`;
  }
  return null;
}

export interface UploadDraft {
  datasetType: DatasetType;
  roles: Role[];
  description: string;
}

/** The upload's query string values (the roles travel as repeated `roles=` keys). */
export function uploadQueryOf(fileName: string, draft: UploadDraft): DatasetUploadQuery {
  return { datasetType: draft.datasetType, fileName, roles: draft.roles, description: draft.description.trim() };
}
