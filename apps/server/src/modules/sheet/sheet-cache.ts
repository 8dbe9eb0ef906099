/**
 * What the sheet keeps between calls, bounded by a cost budget (cells, ids): the least recently
 * used entries go first. A page, a sort or one more endpoint then costs only what changed. Any
 * server answers any call (the key is the content, not a session), so nothing here must be shared.
 */
export class CostLru<V> {
  private readonly entries = new Map<string, { value: V; cost: number }>();
  private total = 0;

  constructor(private readonly budget: number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, cost: number): void {
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.cost;
      this.entries.delete(key);
    }
    if (cost > this.budget) return;
    this.entries.set(key, { value, cost });
    this.total += cost;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.budget) break;
      this.entries.delete(oldest);
      this.total -= entry.cost;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/** A short fingerprint of a sorted id list (FNV-1a over the ids, with the length): the key of what was computed from them. */
export function idsKey(strIds: readonly number[]): string {
  let hash = 0x811c9dc5;
  let high = 0x01000193;
  for (const id of strIds) {
    hash = Math.imul(hash ^ (id & 0xffff), 0x01000193) >>> 0;
    hash = Math.imul(hash ^ (id >>> 16), 0x01000193) >>> 0;
    high = Math.imul(high ^ hash, 0x5bd1e995) >>> 0;
  }
  return `${strIds.length}:${hash.toString(16)}:${high.toString(16)}:${strIds[0] ?? 0}:${strIds[strIds.length - 1] ?? 0}`;
}
