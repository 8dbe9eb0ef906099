/**
 * Arrays indexed by id — a flag, a counter or a position per id up to the highest — are how the
 * in-memory paths (search bitmaps, held results, charts) mark, count and find ids without a Map or
 * a sort: the knowledge base's keys are dense (at L, structures up to 2.5 M, activities up to
 * 27 M). One bound for all of them, so that a link without a foreign key holding a stray large id
 * (a dangling id read as the largest int4) makes the caller take its slower way, not allocate
 * gigabytes. Arrays over a table's own keys (a set of structures, the targets that exist) need no
 * bound: those ids are the table's.
 */

/** Bytes one array indexed by id may take. */
const ID_ARRAY_BYTES = 64 * 2 ** 20;

/** Whether an array of `bytesPerId` bytes per id, up to `highest`, is within the bound. */
export function fitsIdArray(highest: number, bytesPerId: number): boolean {
  return (highest + 1) * bytesPerId <= ID_ARRAY_BYTES;
}
