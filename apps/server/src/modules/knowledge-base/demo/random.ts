/** Small deterministic PRNG helpers: the same seed always yields the same knowledge base. */
import { mulberry32 } from './mulberry32.mjs';

/** 32-bit FNV-1a of the parts joined: stable seeds for chunks, series and SAR contributions. */
export function hashSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('|')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  private readonly source: () => number;

  constructor(seed: number) {
    this.source = mulberry32(seed >>> 0 || 1);
  }

  /** mulberry32: fast, good enough for synthetic data, identical on every platform. */
  next(): number {
    return this.source();
  }

  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** k distinct items, order kept deterministic. */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, k);
  }
}

/** A deterministic standard-normal value for a key (e.g. a substituent's SAR contribution). */
export function keyedNormal(...parts: (string | number)[]): number {
  return new Rng(hashSeed(...parts)).normal();
}
