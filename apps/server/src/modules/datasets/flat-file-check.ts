import { FLAT_FILE_EXTENSIONS } from '@kb/contracts/datasets';

/**
 * What an uploaded flat file must look like for its extension, checked on its first bytes while it
 * streams in: a spreadsheet or archive by its magic number, text as UTF-8 without NUL bytes, an SDF
 * by its record separator. A mislabelled or binary file is refused before it is listed.
 */

export type FlatFileExtension = (typeof FLAT_FILE_EXTENSIONS)[number];

/** The extension the checks go by (`x.csv.gz` is a gzip file), or null when it is not allowed. */
export function flatFileExtension(fileName: string): FlatFileExtension | null {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0) return null;
  const ext = fileName.slice(dot + 1).toLowerCase();
  return (FLAT_FILE_EXTENSIONS as readonly string[]).includes(ext) ? (ext as FlatFileExtension) : null;
}

/** Bytes of the head the checks read. */
export const HEAD_BYTES = 64 * 1024;

const startsWith = (head: Buffer, bytes: number[]) => bytes.every((byte, index) => head[index] === byte);

function isUtf8Text(head: Buffer, complete: boolean): boolean {
  if (head.includes(0)) return false;
  // A multi-byte character may be cut at the end of the head: only the part before it must decode.
  const body = complete ? head : head.subarray(0, Math.max(0, head.length - 4));
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks a file's head against its extension; answers what is wrong, or null. `complete` says the
 * head is the whole file (an SDF that short must show a record end).
 */
export function flatFileProblem(ext: FlatFileExtension, head: Buffer, complete: boolean): string | null {
  if (head.length === 0) return 'The file is empty.';
  switch (ext) {
    case 'zip':
    case 'xlsx':
      return startsWith(head, [0x50, 0x4b, 0x03, 0x04])
        ? null
        : `This is not a ${ext === 'zip' ? 'ZIP archive' : 'XLSX workbook'} (it does not start as one).`;
    case 'gz':
      return startsWith(head, [0x1f, 0x8b]) ? null : 'This is not a gzip file (it does not start as one).';
    case 'sdf':
      if (!isUtf8Text(head, complete)) return 'An SDF must be text; this file is binary.';
      if (complete && !head.includes('$$$$')) return 'This SDF has no record end ($$$$): it is not a structure file.';
      if (!complete && !head.includes('M  END') && !head.includes('$$$$'))
        return 'This does not look like an SDF (no molblock end in its first 64 KB).';
      return null;
    default:
      return isUtf8Text(head, complete) ? null : `A .${ext} file must be UTF-8 text; this one is binary or in another encoding.`;
  }
}
