/**
 * The chemistry engine's one interface (ARCHITECTURE.md "Chemistry engine"): structure search,
 * query checking and depiction. The search, results and SAR modules depend on this, never on
 * RDKit or worker threads directly.
 */

/** A structure query as a chemist typed or drew it. */
export interface ChemQuery {
  kind: 'smiles' | 'smarts' | 'molfile';
  text: string;
  /** Desalted (spec §5 default): the query's largest fragment; counter-ions and solvents dropped. */
  desalt: boolean;
}

/** What RDKit made of a query. */
export interface DescribedQuery {
  /** Canonical SMILES (molecule queries) of the desalted query. */
  smiles?: string;
  /** SMARTS as RDKit wrote it back (pattern queries). */
  smarts?: string;
  atoms: number;
  /** Morgan r=2 fingerprint (molecule queries): the similarity query. */
  morgan?: Uint8Array;
  /** Standard InChI of the (desalted) molecule, when asked for (`describe(query, { inchi: true })`). */
  inchi?: string;
}

export interface EngineProgress {
  /** 'index' while the structure index is still loading, then 'search'. */
  phase: 'index' | 'search';
  /** Structures searched so far and in all. */
  searched: number;
  total: number;
  hits: number;
}

export interface SearchOptions {
  /** Stop after this many hits (a first page); 0 or absent = all. */
  limit?: number;
  signal?: AbortSignal;
  onProgress?: (progress: EngineProgress) => void;
  /**
   * Only these str_ids (ascending) can be hits: a structure filter inside a search's results
   * matches the search's own structures, not the whole index. Same hits as an unrestricted search
   * intersected with them.
   */
  candidates?: Float64Array;
  /**
   * Similarity only: just the `nearest` most similar structures in the range (ties by str_id), found
   * without scoring the rest: each worker raises its threshold to the k-th best it has seen.
   */
  nearest?: number;
}

export interface StructureHits {
  /** Matching str_ids (substructure: in no particular order). */
  ids: Float64Array;
  /** Tanimoto per id (similarity searches only). */
  similarities?: Float64Array;
  /** False when `limit` stopped the search early. */
  complete: boolean;
  /** Number of hits in all when known (complete searches, similarity), else null. */
  total: number | null;
  /** What RDKit made of the query (the engine reads it anyway; callers need not ask again). */
  query?: DescribedQuery;
  searched: number;
  /** Substructure searches: rows that passed the fingerprint screen, and those matched by RDKit rather than in JavaScript (benchmarks read it). */
  screen?: { candidates: number; byRdkit: number };
}

type HighlightMode = 'match' | 'rest';

export interface DepictOptions {
  width: number;
  height: number;
  /**
   * Substructure to highlight (SMILES or SMARTS). mode 'rest' colours what lies outside all its
   * matches instead (the part of the molecule that differs from it); 'match' by default.
   */
  highlight?: { kind: 'smiles' | 'smarts'; text: string; mode?: HighlightMode } | null;
  /** A stored structure (canonical SMILES from the database): checked against looser limits than a query. */
  stored?: boolean;
  /** A template (SMILES or SMARTS) whose matched atoms are laid out as the template is drawn. */
  align?: { kind: 'smiles' | 'smarts'; text: string } | null;
}

export interface EngineStatus {
  /** `recovering`: a worker is being replaced and its shards reloaded; searches wait for it. */
  state: 'idle' | 'loading' | 'ready' | 'recovering' | 'failed';
  /** Structures in the index, and in the database when loading started. */
  loaded: number;
  total: number;
  shards: number;
  workers: number;
  /** Milliseconds the last (re)load took. */
  loadMs: number | null;
  /**
   * The exact answers of the frequent fragments (benzene, pyridine, amide, carboxylic acid) are
   * computed for every shard: computed in the background after a load, while no search waits.
   */
  fragmentsReady: boolean;
  error: string | null;
}

/** Options of the SAR work (R-group decomposition, scaffolds, MCS, fragments): cancel and progress, as searches. */
export interface SarWorkOptions {
  signal?: AbortSignal;
  /** Compounds done so far and in all. */
  onProgress?: (done: number, total: number) => void;
}

/** An R-group decomposition (RDKit RGroupDecomposition) of a list of SMILES around one or more cores. */
export interface RGroupDecompositionResult {
  /** The cores as RDKit labelled them: `[*:n]` at each R position. */
  cores: string[];
  /** R-group labels in order: R1, R2, … */
  labels: string[];
  /** Per input SMILES, in order: its core (index into `cores`) and R-groups (SMILES with `[*:n]`; null = hydrogen), or null when it does not fit. */
  rows: ({ core: number; rgroups: Record<string, string | null> } | null)[];
  /**
   * RDKit's matching strategy used (docs/sar.md "R-group decomposition"): `Greedy` resolves
   * symmetric positions across the set (RDKit's Greedy, or the parallel path's symmetry pass);
   * `NoSymmetrization` (several or SMARTS cores over 500 compounds, for time) leaves them as matched.
   */
  strategy?: 'Greedy' | 'NoSymmetrization';
}

/** One single cut of a molecule (matched molecular pairs): the unchanged part and the part cut off, each with `[*:1]`. */
export interface SingleCut {
  constant: string;
  variable: string;
}

/**
 * The part two compounds share, per compound (SMARTS; drawn with highlightMode 'rest' it colours what
 * differs): `mcs` RDKit's maximum common substructure; `partial` the largest common substructure
 * RDKit found before its time limit; `core` the SAR core; `environment` the atoms whose radius-1
 * environment the other compound also has (largest connected part). After mcs, partial or core, the
 * parts (≥ 3 atoms) the rest of each compound still shares with the other's rest are joined on with
 * '.', written for that compound (its atoms' degree and hydrogen count): `a` and `b` then differ,
 * and `common` is the one connected SMARTS both contain.
 */
export interface PairDifference {
  kind: 'mcs' | 'partial' | 'core' | 'environment';
  a: string;
  b: string;
  /** When `a` and `b` were extended beyond it: the connected common substructure (mcs, partial or core) of both. */
  common?: string | null;
}

export interface ChemEngine {
  status(): EngineStatus;
  /**
   * Whether its start-up work is over: the index is in and the frequent fragments are computed (or
   * were given up after a lost worker), or the load failed. Readiness (`GET /api/health/ready`) asks it.
   */
  startupState(): 'warming' | 'ready' | 'failed';
  /** Loads the index in the background (idempotent); searches wait for it. */
  start(): void;
  /** Resolves when the index is loaded; rejects if loading failed. `onWait` hears the load's progress. */
  ready(signal?: AbortSignal, onWait?: (progress: EngineProgress) => void): Promise<void>;
  /** Loads structures added since the last load (imports, seeds). */
  refresh(): Promise<void>;
  describe(query: ChemQuery, options?: { inchi?: boolean }): Promise<DescribedQuery>;
  substructure(query: ChemQuery, options?: SearchOptions): Promise<StructureHits>;
  similarity(query: ChemQuery, range: { min: number; max: number }, options?: SearchOptions): Promise<StructureHits>;
  depict(input: { kind: 'smiles' | 'smarts' | 'molfile'; text: string }, options: DepictOptions): Promise<string>;
  /** V2000 molblocks with 2D coordinates (SDF export), in order; null where RDKit cannot read the SMILES. */
  molblocks(smiles: readonly string[]): Promise<(string | null)[]>;
  /** R-group decomposition (SAR view); an unreadable core is a ChemInputError with RDKit's message. */
  decompose(cores: ChemQuery[], smiles: readonly string[], options?: SarWorkOptions): Promise<RGroupDecompositionResult>;
  /** Bemis–Murcko scaffold per SMILES (null: no ring, or unreadable). */
  scaffolds(smiles: readonly string[], options?: SarWorkOptions): Promise<(string | null)[]>;
  /**
   * Maximum common substructure as SMARTS (null when none); stops at the time limit and says so.
   * Rings match only rings; completeRings (default true: a usable core) also keeps only whole rings,
   * which costs RDKit up to hundreds of ms a pair — false for an atom-level difference of two compounds.
   * `smiles`: the MCS as the molecule it describes (drawn with its elements and bonds), null when it is none.
   */
  mcs(
    smiles: readonly string[],
    options?: SarWorkOptions & { timeoutSeconds?: number; completeRings?: boolean },
  ): Promise<{ smarts: string; smiles: string | null; timedOut: boolean } | null>;
  /**
   * What each pair shares (docs/sar.md "Activity cliffs"): FMCS per pair on all workers until
   * `budgetMs` is spent, then the fast fallbacks (core, atom environments) for the rest; null only
   * for an unreadable SMILES. `core` is the SAR table's core (`[*:n]` at its R positions), if any.
   */
  pairDifferences(
    pairs: readonly (readonly [string, string])[],
    options?: SarWorkOptions & { core?: string | null; timeoutSeconds?: number; budgetMs?: number },
  ): Promise<(PairDifference | null)[]>;
  /** Per SMILES: does it contain the query (core coverage of a suggestion)? */
  contains(query: ChemQuery, smiles: readonly string[], options?: SarWorkOptions): Promise<boolean[]>;
  /** Single-cut fragmentations per SMILES (RDKit MMPA, acyclic single bonds), for matched molecular pairs. */
  fragments(smiles: readonly string[], options?: SarWorkOptions): Promise<SingleCut[][]>;
  /** The core (`[*:n]` labels) with R-groups joined on (RDKit molzip): canonical SMILES. */
  zip(core: string, rgroups: Record<string, string | null>): Promise<string>;
  close(): Promise<void>;
}

/** A query RDKit cannot read: the message says what is wrong and where (answered as 400). */
export class ChemInputError extends Error {}

/**
 * A query refused by the engine itself, not by RDKit's parser: over a limit (query-limits.ts),
 * RDKit trapped on it, or the watchdog stopped it. The message is whole, shown as it is.
 */
export class ChemQueryRefused extends ChemInputError {}

/** Messages of ChemQueryRefused start like this (chem-query.ts shows them without RDKit's framing). */
export const REFUSAL_MESSAGE =
  /^(The (query|SMILES|SMARTS|molfile|highlight) (has|nests)|RDKit (could not process|took longer)|The structure search was stopped on one part)/;

/** The search was cancelled by its caller (or its time limit). */
export class ChemSearchCancelled extends Error {}

/** The engine's work stopped: cancelled by its caller, aborted, or past an AbortSignal.timeout. */
export function isChemStopped(error: unknown): boolean {
  return error instanceof ChemSearchCancelled || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'));
}
