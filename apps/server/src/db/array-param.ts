import type { DatabaseKind } from './database.ts';

/** PostgreSQL's type id of int4, named in the binary array header. */
const INT4_OID = 23;

/**
 * An `int4[]` query parameter holding `values` (use it as `${param}::int[]`). On a PostgreSQL
 * server it is PostgreSQL's binary array format: node-postgres sends a Buffer as a binary
 * parameter and the server decodes it with `array_recv`, without parsing text (750,000 ids × 6
 * columns: 1.1 s against 2.0–2.7 s as text, measured beside a seed). PGlite's worker serialises
 * parameters as text, so it gets the text form `{1,2,3}`.
 */
export function int4ArrayParam(values: Int32Array, kind: DatabaseKind): Buffer | string {
  if (kind === 'pglite') return `{${values.join(',')}}`;
  // Header: dimensions 1, no NULLs, element type, length, lower bound 1; then (length 4, value) per element.
  const words = new Int32Array(5 + 2 * values.length);
  words.set([1, 0, INT4_OID, values.length, 1]);
  for (let k = 0; k < values.length; k++) {
    words[5 + 2 * k] = 4;
    words[6 + 2 * k] = values[k]!;
  }
  // Big-endian on the wire.
  return Buffer.from(words.buffer).swap32();
}
