import type { COLLECTION_UPLOAD_FORMATS } from '@kb/contracts/workspace';
import { COLLECTION_UPLOAD_MAX_BYTES } from '@kb/contracts/workspace';

export type UploadFormat = (typeof COLLECTION_UPLOAD_FORMATS)[number];

export const UPLOAD_FORMAT_LABELS: Record<UploadFormat, string> = {
  smiles: 'SMILES (one a line)',
  sdf: 'SDF',
  ids: 'Structure ids',
};

/**
 * What pasted or uploaded text most likely is: an SDF (it has molblock ends or record separators),
 * structure ids (every line a whole number), else SMILES. The user can correct the guess.
 */
export function guessUploadFormat(text: string, fileName = ''): UploadFormat {
  const name = fileName.toLowerCase();
  if (name.endsWith('.sdf') || name.endsWith('.sd') || name.endsWith('.mol') || /M {2}END|\$\$\$\$/.test(text)) return 'sdf';
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length > 0 && lines.every((line) => /^\d+([\s,;]+\d+)*$/.test(line))) return 'ids';
  return 'smiles';
}

/** Why the text cannot be sent, or null: empty, or over the upload's size. */
export function uploadTextError(text: string): string | null {
  if (!text.trim()) return 'Paste or choose a file with at least one compound.';
  if (new TextEncoder().encode(text).length > COLLECTION_UPLOAD_MAX_BYTES)
    return 'The text is larger than 5 MB: split it into smaller uploads.';
  return null;
}
