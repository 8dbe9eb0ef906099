import type { SearchCounts } from '@kb/contracts/search';
import type { RoaringBitmap32 } from './roaring.ts';

/**
 * A recomputed search's sets (bitmap-counts.ts `bitmapSearchOnRead`, for SearchService
 * `recompute`): structures, activities and development compounds made at once, the linked sets on
 * first need. Shaped as `BitmapSearchResult`.
 */

/** The sets a search links from its activities and structures: made after the others, and only when read in a recompute. */
export type LinkedKind = 'compounds' | 'assays' | 'references';

export const LINKED_KINDS: readonly LinkedKind[] = ['compounds', 'assays', 'references'];

/** The count of each linked set in `SearchCounts`. */
const LINKED_COUNT: Record<LinkedKind, keyof SearchCounts> = {
  compounds: 'gvkidscount',
  assays: 'assayidscount',
  references: 'refidscount',
};

interface CoreSets {
  structures: RoaringBitmap32;
  activities: RoaringBitmap32;
  clinical: RoaringBitmap32;
}

/** `bitmapSearchOnRead`'s sets: reading a linked set before `make` has made it is a programming error, and throws. */
export class SetsMadeOnRead {
  readonly counts: SearchCounts;
  readonly structures: RoaringBitmap32;
  readonly activities: RoaringBitmap32;
  readonly clinical: RoaringBitmap32;
  private readonly made: Partial<Record<LinkedKind, RoaringBitmap32>> = {};

  constructor(
    core: CoreSets,
    /** Let go once all three are made: it keeps the search's compiled rows and the activities' structures. */
    private maker: ((kind: LinkedKind) => Promise<RoaringBitmap32>) | null,
    stored: SearchCounts,
  ) {
    ({ structures: this.structures, activities: this.activities, clinical: this.clinical } = core);
    this.counts = {
      ...stored,
      stridscount: core.structures.size,
      actidscount: core.activities.size,
      clinicalcompoundidscount: core.clinical.size,
    };
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

  /** Whether a linked set is made (its bytes then count in the held sets' budget). */
  isMade(kind: LinkedKind): boolean {
    return this.made[kind] !== undefined;
  }

  /** Makes the linked sets asked for; throws when one differs from its stored count (then these sets are not the session's answer). */
  async make(kinds: readonly LinkedKind[]): Promise<void> {
    // References link from the compound records too: those are made (and counted) first.
    for (const kind of kinds.includes('references') ? ['compounds' as const, ...kinds] : kinds) {
      if (this.made[kind]) continue;
      const set = await this.maker!(kind);
      if (set.size !== this.counts[LINKED_COUNT[kind]]) throw new Error(`The recomputed ${kind} differ from the session's stored count.`);
      this.made[kind] = set;
    }
    if (LINKED_KINDS.every((kind) => this.made[kind])) this.maker = null;
  }

  private read(kind: LinkedKind): RoaringBitmap32 {
    const set = this.made[kind];
    if (!set) throw new Error(`The ${kind} of recomputed sets were read before they were made (SearchService.heldSets' need).`);
    return set;
  }
}
