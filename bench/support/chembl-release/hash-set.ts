import crypto from 'node:crypto';

/**
 * The canonical SMILES already taken, as 52-bit hashes in one typed array (open addressing): 2.4 M
 * structures cost 32 MB instead of the ~300 MB a Set of strings would. A hash collision can only
 * make us drop a structure that was in fact new (never keep a duplicate), and at 2.4 M entries in
 * 2^52 that happens with probability ~1e-3 per full-size file.
 */
export class SmilesHashSet {
  private slots: Float64Array;
  private used = 0;

  constructor(expected: number) {
    this.slots = new Float64Array(capacityFor(expected));
  }

  get size(): number {
    return this.used;
  }

  /** Adds the SMILES; false when it was there already. */
  add(smiles: string): boolean {
    const h = hash52(smiles);
    if (!this.insert(this.slots, h)) return false;
    this.used++;
    if (this.used > this.slots.length * 0.7) this.grow();
    return true;
  }

  private insert(slots: Float64Array, h: number): boolean {
    const mask = slots.length - 1;
    for (let i = h % slots.length; ; i = (i + 1) & mask) {
      const slot = slots[i] as number;
      if (slot === 0) {
        slots[i] = h;
        return true;
      }
      if (slot === h) return false;
    }
  }

  private grow(): void {
    const bigger = new Float64Array(this.slots.length * 2);
    for (const h of this.slots) if (h !== 0) this.insert(bigger, h);
    this.slots = bigger;
  }
}

function capacityFor(expected: number): number {
  let capacity = 1024;
  while (capacity < expected * 2) capacity *= 2;
  return capacity;
}

/** 52 bits of the SMILES' md5, never 0 (0 marks an empty slot). */
function hash52(smiles: string): number {
  const digest = crypto.createHash('md5').update(smiles).digest();
  return digest.readUIntBE(0, 6) * 16 + ((digest[6] as number) >> 4) || 1;
}
