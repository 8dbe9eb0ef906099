import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { TargetTerm } from '@kb/contracts/search';
import type { ResolvedTarget, TargetMatchKind } from '@kb/contracts/targets';
import type { Database } from '../../db/schema.ts';
import { TargetTextError, isTextTerm, readTargetText } from './target-text.ts';
import type { TargetText } from './target-text.ts';

/**
 * The one resolver of Target terms (docs/search-semantics.md "Target text and families"): the
 * search compiler, the "stands for N targets" of the row (`/api/search/targets/resolve`), the
 * upload of target lists and the family suggestions all call it, so they agree by construction.
 *
 * Set-based: every text term of a call travels in one array per column and is matched in two
 * statements (identifiers, then the rest), however many terms there are.
 */

type Db = Kysely<Database>;

/** What one term stands for. */
export interface ResolvedTerm {
  match: TargetMatchKind;
  /** Target ids, ascending, each once. */
  ids: number[];
}

/** Synonyms that are identifiers: matched exactly (or by a wildcard), never by prefix or word. */
const ACCESSION = 'UniProt accession';
const GENE_SYNONYMS = ['gene symbol', 'gene symbol other'];

interface Pair {
  n: number;
  target_id: number | string;
}

/**
 * Wildcard terms one call may hold: each is matched as a regular expression against every target
 * name and synonym (no index helps a `*` inside a word), so they are bounded like the structure
 * queries of a search. An upload of a list, a row and the resolve call share the limit.
 */
const MAX_PATTERN_TERMS = 50;

/** A resolver statement running longer than this is cancelled and the call refused in words (SQLSTATE 57014). */
const RESOLVE_TIME_LIMIT_MS = 60_000;

/** Resolves each term (throws TargetTextError for a refused term or call: a wildcard with too little text, too many wildcards, too slow). */
export async function resolveTargetTerms(
  db: Db,
  terms: readonly Pick<TargetTerm, 'label' | 'targetCategories' | 'ids' | 'classIds'>[],
  options: { wordJoinThreshold?: number } = {},
): Promise<ResolvedTerm[]> {
  // Read every text first: a refused term fails the call before any query.
  const texts = terms
    .map((term, n) => (isTextTerm(term) ? { n, text: readTargetText(term) } : null))
    .filter((t): t is { n: number; text: TargetText } => t !== null);
  const patterns = texts.filter((t) => t.text.pattern).length;
  if (patterns > MAX_PATTERN_TERMS) {
    throw new TargetTextError(
      `${patterns.toLocaleString('en-US')} target terms with wildcards: at most ${MAX_PATTERN_TERMS} at a time. Pick targets or families from the suggestions, or split the list.`,
    );
  }
  const found = terms.map(() => new Set<number>());
  const add = (rows: readonly Pair[]) => {
    for (const row of rows) found[row.n]!.add(Number(row.target_id));
  };
  const hit = new Set<number>();
  await withoutJit(db, async (trx) => {
    add(await pickedTargets(trx, terms));
    add(await familyTargets(trx, terms));
    const identified = await identifierMatches(trx, texts);
    add(identified);
    for (const row of identified) hit.add(row.n);
    add(
      await textMatches(
        trx,
        texts.filter((t) => !hit.has(t.n)),
        options,
      ),
    );
  });
  return terms.map((term, n) => ({
    match: term.ids?.length
      ? 'picked'
      : term.classIds?.length
        ? 'family'
        : hit.has(n)
          ? 'identifier'
          : /[*?]/.test(term.label)
            ? 'pattern'
            : 'text',
    ids: [...found[n]!].sort((a, b) => a - b),
  }));
}

/** The distinct target ids of all terms together: what a Target row matches. */
export async function resolveTargetIds(db: Db, terms: Parameters<typeof resolveTargetTerms>[1]): Promise<number[]> {
  const all = new Set<number>();
  for (const term of await resolveTargetTerms(db, terms)) for (const id of term.ids) all.add(id);
  return [...all].sort((a, b) => a - b);
}

/** Terms with ids: those of them that are targets. */
async function pickedTargets(db: Db, terms: readonly Pick<TargetTerm, 'ids'>[]): Promise<Pair[]> {
  const n: number[] = [];
  const ids: number[] = [];
  terms.forEach((term, index) => {
    for (const id of term.ids ?? []) {
      n.push(index);
      ids.push(id);
    }
  });
  if (ids.length === 0) return [];
  const { rows } = await sql<Pair>`SELECT k.n, t.target_id FROM unnest(${n}::int[], ${ids}::bigint[]) AS k(n, id)
    JOIN targets t ON t.target_id = k.id`.execute(db);
  return rows;
}

/** Terms with families: the targets of each family and of everything under it. */
async function familyTargets(db: Db, terms: readonly Pick<TargetTerm, 'classIds'>[]): Promise<Pair[]> {
  const n: number[] = [];
  const ids: number[] = [];
  terms.forEach((term, index) => {
    for (const id of term.classIds ?? []) {
      n.push(index);
      ids.push(id);
    }
  });
  if (ids.length === 0) return [];
  const { rows } = await sql<Pair>`WITH RECURSIVE fam(n, class_id) AS (
      SELECT k.n, c.class_id FROM unnest(${n}::int[], ${ids}::int[]) AS k(n, id) JOIN target_classes c ON c.class_id = k.id
      UNION SELECT fam.n, c.class_id FROM target_classes c JOIN fam ON c.parent_id = fam.class_id)
    SELECT DISTINCT fam.n, t.target_id FROM fam JOIN targets t ON t.class_id = fam.class_id`.execute(db);
  return rows;
}

/** The text terms as one table `k`, one array per column. */
function termTable(texts: readonly { n: number; text: TargetText }[]) {
  const column = <T>(get: (t: TargetText) => T) => texts.map((t) => get(t.text));
  const has = (category: string) => column((t) => t.categories.has(category as never));
  return sql`SELECT * FROM unnest(${texts.map((t) => t.n)}::int[], ${column((t) => t.text)}::text[], ${column((t) => t.upper)}::text[],
      ${column((t) => t.like)}::text[], ${column((t) => t.likeUpper)}::text[], ${column((t) => t.words)}::text[],
      ${column((t) => t.pattern)}::boolean[], ${column((t) => t.fuzzy)}::boolean[],
      ${has('name')}::boolean[], ${has('gene')}::boolean[], ${has('uniprot')}::boolean[], ${has('entrez')}::boolean[], ${has('pdb')}::boolean[])
    AS k(n, text, upper, lk, lk_upper, words, pattern, fuzzy, c_name, c_gene, c_uniprot, c_entrez, c_pdb)`;
}

/**
 * Identifiers, exactly (texts without wildcards): official gene symbols, UniProt accessions (the
 * target's or a component's, kept as synonyms), ChEMBL ids, Entrez ids, PDB ids. A term that
 * names an identifier means exactly those targets: "EGFR", "P00533", "CHEMBL203"; "PARP1" is not
 * PARP10.
 */
async function identifierMatches(db: Db, texts: readonly { n: number; text: TargetText }[]): Promise<Pair[]> {
  const plain = texts.filter((t) => !t.text.pattern);
  if (plain.length === 0) return [];
  const { rows } = await sql<Pair>`WITH k AS MATERIALIZED (${termTable(plain)})
    SELECT k.n, t.target_id FROM k JOIN targets t ON lower(t.gene_symbol) = k.text WHERE k.c_name OR k.c_gene
    UNION SELECT k.n, t.target_id FROM k JOIN targets t ON t.uniprot_id = k.upper WHERE k.c_name OR k.c_uniprot
    UNION SELECT k.n, s.target_id FROM k JOIN target_synonyms s ON lower(s.synonym) = k.text
      WHERE s.syn_type = ${ACCESSION} AND (k.c_name OR k.c_uniprot)
    UNION SELECT k.n, t.target_id FROM k JOIN targets t ON t.chembl_id = k.upper WHERE k.c_name
    UNION SELECT k.n, t.target_id FROM k JOIN targets t
      ON t.entrez_gene_id = (CASE WHEN k.text ~ '^[0-9]{1,15}$' THEN k.text::bigint END) WHERE k.c_entrez
    UNION SELECT k.n, p.target_id FROM k JOIN (SELECT target_id, upper(unnest(pdb_ids)) AS pdb FROM targets) p ON p.pdb = k.upper WHERE k.c_pdb`.execute(
    db,
  );
  return rows;
}

/**
 * Above this many texts to match by whole words, the values are cut into words once and joined with
 * the texts' first words (a hash join, about 100 ms at ChEMBL's size whatever the number of texts:
 * uploads); below it each text scans the lower-cased values (about 6 ms a text after a fixed 30 ms).
 * Both give the same answer (targets.api.test.ts runs the rules both ways).
 */
const WORD_JOIN_THRESHOLD = 12;

/** Prefix of a lower-cased column over the text, as a range its `lower(x) text_pattern_ops` index answers. */
const startsWith = (column: ReturnType<typeof sql.raw>) => sql`(${column} ~>=~ k.text AND ${column} ~<~ (k.text || chr(1114111)))`;

/**
 * Texts that named no identifier. A text of FUZZY_MIN_LETTERS letters or digits (or a pattern):
 * gene symbols starting with it; names and synonyms starting with it or holding it as whole words;
 * families whose name does, with everything under them. A shorter text: names, synonyms and family
 * names equal to it. A pattern's `*` and `?` are wildcards; it matches a whole value or whole words.
 */
async function textMatches(
  db: Db,
  texts: readonly { n: number; text: TargetText }[],
  options: { wordJoinThreshold?: number } = {},
): Promise<Pair[]> {
  if (texts.length === 0) return [];
  const has = (test: (t: TargetText) => boolean) => texts.some((t) => test(t.text));
  const named = (t: TargetText) => t.categories.has('name');
  const wordTexts = texts.filter((t) => t.text.fuzzy && !t.text.pattern && named(t.text)).length;
  const joinWords = wordTexts > (options.wordJoinThreshold ?? WORD_JOIN_THRESHOLD);
  const ctes = [sql`k AS MATERIALIZED (${termTable(texts)})`];
  const parts: ReturnType<typeof sql>[] = [];
  const geneSynonyms = sql`s.syn_type IN (${sql.join(GENE_SYNONYMS)})`;

  // Shorter texts: names, synonyms (for the gene field, gene-symbol synonyms) equal to the text.
  if (has((t) => !t.fuzzy)) {
    parts.push(sql`SELECT k.n, t.target_id FROM k JOIN targets t ON lower(t.name) = k.text WHERE k.c_name AND NOT k.fuzzy`);
    parts.push(sql`SELECT k.n, s.target_id FROM k JOIN target_synonyms s ON lower(s.synonym) = k.text
      WHERE NOT k.fuzzy AND (k.c_name OR (k.c_gene AND ${geneSynonyms}))`);
  }
  // Prefixes (texts without wildcards): gene symbols, names, synonyms that start with the text.
  if (has((t) => t.fuzzy && !t.pattern)) {
    const plain = sql`k.fuzzy AND NOT k.pattern`;
    parts.push(
      sql`SELECT k.n, t.target_id FROM k JOIN targets t ON ${startsWith(sql.raw('lower(t.gene_symbol)'))} WHERE ${plain} AND (k.c_name OR k.c_gene)`,
    );
    parts.push(sql`SELECT k.n, s.target_id FROM k JOIN target_synonyms s ON ${startsWith(sql.raw('lower(s.synonym)'))}
      WHERE ${plain} AND ((k.c_name AND s.syn_type <> ${ACCESSION}) OR (k.c_gene AND ${geneSynonyms}))`);
    parts.push(sql`SELECT k.n, t.target_id FROM k JOIN targets t ON ${startsWith(sql.raw('lower(t.name)'))} WHERE ${plain} AND k.c_name`);
  }
  // Patterns: the whole lower-cased value (gene symbols, gene-symbol synonyms, accessions), or whole words (names, synonyms).
  if (has((t) => t.pattern)) {
    parts.push(
      sql`SELECT k.n, t.target_id FROM k JOIN targets t ON lower(t.gene_symbol) LIKE k.lk WHERE k.pattern AND (k.c_name OR k.c_gene)`,
    );
    parts.push(sql`SELECT k.n, s.target_id FROM k JOIN target_synonyms s ON lower(s.synonym) LIKE k.lk
      WHERE k.pattern AND ((k.c_gene AND ${geneSynonyms}) OR ((k.c_name OR k.c_uniprot) AND s.syn_type = ${ACCESSION}))`);
    parts.push(
      sql`SELECT k.n, t.target_id FROM k JOIN targets t ON t.uniprot_id LIKE k.lk_upper WHERE k.pattern AND (k.c_name OR k.c_uniprot)`,
    );
  }
  // Whole words of names and synonyms (and patterns over them), on the values lower-cased once.
  if (has((t) => t.fuzzy && named(t))) {
    ctes.push(sql`wv AS MATERIALIZED (SELECT target_id, lower(name) AS v FROM targets
      UNION ALL SELECT target_id, lower(synonym) FROM target_synonyms WHERE syn_type <> ${ACCESSION})`);
    const scanned = joinWords ? sql`k.pattern` : sql`TRUE`;
    parts.push(
      sql`SELECT k.n, wv.target_id FROM k JOIN wv ON (k.pattern OR strpos(wv.v, k.text) > 0) AND wv.v ~ k.words WHERE k.fuzzy AND k.c_name AND ${scanned}`,
    );
    if (joinWords) {
      // Every match of a text as whole words holds the text's first word as a whole word of the value.
      ctes.push(
        sql`ww AS MATERIALIZED (SELECT DISTINCT target_id, v, w FROM wv CROSS JOIN LATERAL regexp_split_to_table(wv.v, '[^[:alnum:]]+') AS w WHERE w <> '')`,
      );
      parts.push(sql`SELECT k.n, ww.target_id FROM k JOIN ww ON ww.w = substring(k.text FROM '[[:alnum:]]+')
        WHERE k.fuzzy AND NOT k.pattern AND k.c_name AND ww.v ~ k.words`);
    }
  }
  // Families whose name matches (by the same rules), with everything under them.
  if (has(named)) {
    ctes.push(sql`fam(n, class_id) AS (
      SELECT k.n, c.class_id FROM k JOIN target_classes c
        ON CASE WHEN NOT k.fuzzy THEN lower(c.name) = k.text
          ELSE (NOT k.pattern AND starts_with(lower(c.name), k.text)) OR ((k.pattern OR strpos(lower(c.name), k.text) > 0) AND lower(c.name) ~ k.words) END
        WHERE k.c_name
      UNION SELECT fam.n, c.class_id FROM target_classes c JOIN fam ON c.parent_id = fam.class_id)`);
    parts.push(sql`SELECT fam.n, t.target_id FROM fam JOIN targets t ON t.class_id = fam.class_id`);
  }
  if (parts.length === 0) return [];
  return (await sql<Pair>`WITH RECURSIVE ${sql.join(ctes)} ${sql.join(parts, sql` UNION `)}`.execute(db)).rows;
}

/**
 * Runs the resolver's statements in one transaction without JIT compilation: PostgreSQL prices
 * the scans of a few texts high enough to compile them, which took 2 s for a statement that runs
 * in 50 ms (measured at ChEMBL's size, bench/target-text.ts).
 */
async function withoutJit<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`SET LOCAL jit = off`.execute(trx);
      await sql.raw(`SET LOCAL statement_timeout = ${RESOLVE_TIME_LIMIT_MS}`).execute(trx);
      return work(trx);
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === '57014') {
      throw new TargetTextError(
        `Matching these target texts took longer than ${RESOLVE_TIME_LIMIT_MS / 1000} s: use fewer wildcards or longer texts, or pick targets from the suggestions.`,
      );
    }
    throw error;
  }
}

/** The targets of `ids`, by name, at most `limit`. */
export async function describeTargets(db: Db, ids: readonly number[], limit: number): Promise<ResolvedTarget[]> {
  if (ids.length === 0 || limit <= 0) return [];
  const { rows } = await sql<ResolvedTarget>`SELECT t.target_id, t.name, t.gene_symbol, t.uniprot_id, t.chembl_id, t.organism
    FROM targets t WHERE t.target_id = ANY(${[...ids]}::bigint[]) ORDER BY lower(t.name), t.target_id LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({ ...r, target_id: Number(r.target_id) }));
}
