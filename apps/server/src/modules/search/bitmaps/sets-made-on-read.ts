import type { SearchCounts } from '@kb/contracts/search';
import type { RoaringBitmap32 } from './roaring.ts';

/**
 * A recomputed search's sets (bitmap-counts.ts `bitmapSearchOnRead`, for SearchService
 * `recompute`): its activities made at once, every other set on first need. Shaped as
 * `BitmapSearchResult`.
 */

/** The sets a search makes from its activities (and each other), in the order they can be made: each after those it links from. */
export type DerivedKind = 'structures' | 'clinical' | 'compounds' | 'assays' | 'references';

export const DERIVED_KINDS: readonly DerivedKind[] = ['structures', 'clinical', 'compounds', 'assays', 'references'];

/**
 * What each set is made from besides the activities: development compounds and compound records
 * from the structures (a structure matched without an activity brings all of its compound
 * records), references from the compound records too. The one statement of it: a maker reads its
 * sources through `sourcesOf`, which hands it only these, made (and checked) before it.
 */
const MADE_FROM: Record<DerivedKind, readonly DerivedKind[]> = {
  structures: [],
  clinical: ['structures'],
  compounds: ['structures'],
  assays: [],
  references: ['compounds'],
};

/** The count of each derived set in `SearchCounts`. */
const COUNT_OF: Record<DerivedKind, keyof SearchCounts> = {
  structures: 'stridscount',
  clinical: 'clinicalcompoundidscount',
  compounds: 'gvkidscount',
  assays: 'assayidscount',
  references: 'refidscount',
};

/** Makes one set from the activities and, through `source`, the sets `MADE_FROM` names for it. */
export type SetMaker = (kind: DerivedKind, source: (from: DerivedKind) => RoaringBitmap32) => Promise<RoaringBitmap32>;

/** The sources a maker of `kind` may read: those `MADE_FROM` names, from the sets made so far. */
export function sourcesOf(kind: DerivedKind, made: Partial<Record<DerivedKind, RoaringBitmap32>>): (from: DerivedKind) => RoaringBitmap32 {
  return (from) => {
    const set = MADE_FROM[kind].includes(from) ? made[from] : undefined;
    if (!set) throw new Error(`The ${kind} were made from the ${from}: MADE_FROM names it not, or it is not made yet.`);
    return set;
  };
}

/** `kinds` with every set they are made from, in `DERIVED_KINDS`' order. */
function withSources(kinds: readonly DerivedKind[]): DerivedKind[] {
  const wanted = new Set<DerivedKind>();
  const add = (kind: DerivedKind): void => {
    if (wanted.has(kind)) return;
    wanted.add(kind);
    MADE_FROM[kind].forEach(add);
  };
  kinds.forEach(add);
  return DERIVED_KINDS.filter((kind) => wanted.has(kind));
}

/** `bitmapSearchOnRead`'s sets: reading a set before `make` has made it is a programming error, and throws. */
export class SetsMadeOnRead {
  readonly counts: SearchCounts;
  private readonly made: Partial<Record<DerivedKind, RoaringBitmap32>> = {};

  constructor(
    readonly activities: RoaringBitmap32,
    /** Let go once every set is made: it keeps the search's compiled rows and levels. */
    private maker: SetMaker | null,
    stored: SearchCounts,
  ) {
    // The other counts are the stored ones, each checked when its set is made (`make`).
    this.counts = { ...stored, actidscount: activities.size };
  }

  get structures(): RoaringBitmap32 {
    return this.read('structures');
  }

  get clinical(): RoaringBitmap32 {
    return this.read('clinical');
  }

  get compounds(): RoaringBitmap32 {
    return this.read('compounds');
  }

  get assays(): RoaringBitmap32 {
    return this.read('assays');
  }

  get references(): RoaringBitmap32 {
    return this.read('references');
  }

  /** Whether a set is made (its bytes then count in the held sets' budget). */
  isMade(kind: DerivedKind): boolean {
    return this.made[kind] !== undefined;
  }

  /** Makes the sets asked for; throws when one differs from its stored count (then these sets are not the session's answer). */
  async make(kinds: readonly DerivedKind[]): Promise<void> {
    // The sets a set is made from are made first, and each checked and counted as it is made.
    for (const kind of withSources(kinds)) {
      if (this.made[kind]) continue;
      const set = await this.maker!(kind, sourcesOf(kind, this.made));
      if (set.size !== this.counts[COUNT_OF[kind]]) throw new Error(`The recomputed ${kind} differ from the session's stored count.`);
      this.made[kind] = set;
    }
    if (DERIVED_KINDS.every((kind) => this.made[kind])) this.maker = null;
  }

  private read(kind: DerivedKind): RoaringBitmap32 {
    const set = this.made[kind];
    if (!set) throw new Error(`The ${kind} of recomputed sets were read before they were made (SearchService.heldSets' need).`);
    return set;
  }
}
