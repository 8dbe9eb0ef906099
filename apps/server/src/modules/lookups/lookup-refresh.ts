import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { EXCLUDED_CLINICAL_PHASES, LOOKUP_FIELDS, TOKEN_LENGTH, kindId } from './lookup-fields.ts';

/**
 * The look-up tables as the migration (0004_lookups.sql) creates them, for a name suffix: a
 * refresh builds `<table>_next` and renames it into place. A test checks both give the same tables.
 */
function lookupDdl(suffix = ''): { tables: string[]; indexes: string[] } {
  return {
    tables: [
      `CREATE TABLE lookup_entries${suffix} (
  entry_id   bigint PRIMARY KEY,
  field_id   smallint NOT NULL,
  item_id    bigint,
  item_text  text,
  value      text NOT NULL,
  label      text NOT NULL,
  detail     text,
  weight     bigint NOT NULL,
  item_rank  integer NOT NULL
) WITH (parallel_workers = 0)`,
      `CREATE TABLE lookup_terms${suffix} (
  kind_id    smallint NOT NULL,
  field_id   smallint NOT NULL,
  word       boolean NOT NULL,
  token      text COLLATE "C" NOT NULL,
  pos        integer NOT NULL,
  item_rank  integer NOT NULL,
  entry_id   bigint NOT NULL
) WITH (parallel_workers = 0)`,
      `CREATE TABLE lookup_units${suffix} (
  activity_type  text NOT NULL,
  unit           text NOT NULL,
  activities     bigint NOT NULL,
  PRIMARY KEY (activity_type, unit)
)`,
    ],
    // Built after the rows are in: several times faster than maintaining them row by row.
    indexes: [
      `CREATE INDEX lookup_terms${suffix}_token_idx ON lookup_terms${suffix} (field_id, word, token) INCLUDE (item_rank, entry_id)`,
      `CREATE INDEX lookup_terms${suffix}_rank_idx ON lookup_terms${suffix} (kind_id, word, item_rank, entry_id) INCLUDE (field_id, token)`,
      `CREATE INDEX lookup_units${suffix}_type_idx ON lookup_units${suffix} (lower(activity_type))`,
    ],
  };
}

/** Tables and indexes renamed from `_next` into place by a refresh. */
const SWAPPED_TABLES = ['lookup_entries', 'lookup_terms', 'lookup_units'];
const SWAPPED_INDEXES = [
  'lookup_entries_pkey',
  'lookup_units_pkey',
  'lookup_terms_token_idx',
  'lookup_terms_rank_idx',
  'lookup_units_type_idx',
];
const nextName = (name: string) => name.replace(/^(lookup_[a-z]+)/, '$1_next');

export interface RefreshProgress {
  step: string;
  stepsDone: number;
  stepsTotal: number;
}

export interface RefreshSummary {
  entries: number;
  terms: number;
  units: number;
  seconds: number;
}

type Db = Kysely<Database>;

/** Inserts one kind's entries into lk_src: (kind, field, item_id, item_text, value, label, detail, weight). */
const insertSource = (select: RawBuilder<unknown>) =>
  sql`INSERT INTO lk_src (kind, field, item_id, item_text, value, label, detail, weight) ${select}`;

/** Text or NULL when blank. */
const present = (expr: RawBuilder<unknown>) => sql`nullif(btrim(${expr}), '')`;

const STEPS = [
  'activity counts',
  'targets',
  'structures',
  'documents',
  'journals, companies, indications',
  'sources and strains',
  'vocabularies',
  'entries',
  'terms',
  'indexes',
] as const;

/**
 * Rebuilds the autocomplete look-up tables from the knowledge base, in set-based SQL. Idempotent:
 * the result depends only on the knowledge base. The new tables are built beside the old ones and
 * renamed into place at the end of one transaction, so look-ups keep answering (from the old
 * tables) while it runs; concurrent refreshes of one schema wait for each other.
 */
export async function refreshLookupTerms(db: Db, onProgress?: (progress: RefreshProgress) => void): Promise<RefreshSummary> {
  const started = performance.now();
  let stepsDone = 0;
  const step = async (name: (typeof STEPS)[number], work: () => Promise<unknown>) => {
    onProgress?.({ step: name, stepsDone, stepsTotal: STEPS.length });
    await work();
    stepsDone += 1;
  };

  const summary = await db.transaction().execute(async (trx) => {
    const run = (query: RawBuilder<unknown>) => query.execute(trx);
    await run(sql`SELECT pg_advisory_xact_lock(hashtext('kb-lookups:' || current_schema()))`);
    await run(sql`SET LOCAL work_mem = '256MB'`);
    for (const table of SWAPPED_TABLES) await run(sql`DROP TABLE IF EXISTS ${sql.table(`${table}_next`)}`);
    for (const ddl of lookupDdl('_next').tables) await run(sql.raw(ddl));
    await run(sql`CREATE TEMP TABLE lk_src (
      kind text NOT NULL, field text NOT NULL, item_id bigint, item_text text, value text, label text NOT NULL, detail text, weight bigint NOT NULL
    ) ON COMMIT DROP`);

    await step('activity counts', async () => {
      // One grouped pass per dimension; the planner can read each from its activities index.
      const counts = [
        ['lk_act_str', 'str_id'],
        ['lk_act_target', 'target_id'],
        ['lk_act_ref', 'ref_id'],
        ['lk_act_assay', 'assay_id'],
      ] as const;
      for (const [table, column] of counts) {
        await run(sql`CREATE TEMP TABLE ${sql.table(table)} ON COMMIT DROP AS
          SELECT ${sql.ref(column)} AS id, count(*)::bigint AS n FROM activities WHERE ${sql.ref(column)} IS NOT NULL GROUP BY 1`);
      }
      await run(sql`CREATE TEMP TABLE lk_act_type ON COMMIT DROP AS
        SELECT std_activity_type AS name, standard_uom AS unit, count(*)::bigint AS n, activity_mechanism AS mechanism
        FROM activities WHERE std_activity_type IS NOT NULL OR activity_mechanism IS NOT NULL GROUP BY 1, 2, 4`);
      for (const table of ['lk_act_str', 'lk_act_target', 'lk_act_ref', 'lk_act_assay', 'lk_act_type'])
        await run(sql`ANALYZE ${sql.table(table)}`);
    });

    await step('targets', async () => {
      const target = sql`'target', v.field, t.target_id, NULL, v.value, t.name,
        ${present(sql`concat_ws(' · ', t.gene_symbol, t.uniprot_id, t.organism)`)}, coalesce(w.n, 0)`;
      await run(
        insertSource(sql`
        SELECT ${target} FROM targets t LEFT JOIN lk_act_target w ON w.id = t.target_id
        CROSS JOIN LATERAL (VALUES ('name', t.name), ('gene', t.gene_symbol), ('uniprot', t.uniprot_id), ('entrez', t.entrez_gene_id::text)) v(field, value)
        UNION ALL
        SELECT ${target} FROM targets t LEFT JOIN lk_act_target w ON w.id = t.target_id
        CROSS JOIN LATERAL (SELECT 'pdb', p FROM unnest(t.pdb_ids) p) v(field, value)
        UNION ALL
        -- Synonyms that are accessions or gene symbols (ChEMBL components) count as those fields.
        SELECT ${target} FROM target_synonyms s JOIN targets t USING (target_id) LEFT JOIN lk_act_target w ON w.id = t.target_id
        CROSS JOIN LATERAL (SELECT CASE WHEN s.syn_type ~* 'uniprot' THEN 'uniprot' WHEN s.syn_type ~* '^gene[ _]symbol$' THEN 'gene' ELSE 'synonym' END, s.synonym) v(field, value)`),
      );
    });

    await step('structures', async () => {
      await run(sql`CREATE TEMP TABLE lk_str_raw ON COMMIT DROP AS
        SELECT str_id, 'name' AS field, name AS value FROM compounds WHERE str_id IS NOT NULL AND name IS NOT NULL
        UNION ALL SELECT str_id, 'chemblid', chembl_id FROM compounds WHERE str_id IS NOT NULL AND chembl_id IS NOT NULL
        UNION ALL SELECT str_id, 'cas', cas_number FROM compounds WHERE str_id IS NOT NULL AND cas_number IS NOT NULL
        UNION ALL SELECT c.str_id, CASE WHEN s.syn_type ~* '^cas\\M' THEN 'cas' ELSE 'synonym' END, s.synonym
          FROM compound_synonyms s JOIN compounds c USING (gvk_id) WHERE c.str_id IS NOT NULL
        UNION ALL SELECT str_id, 'name', drug_name FROM clinical_compounds WHERE str_id IS NOT NULL`);
      // The label of a structure: its first named compound record, else its development compound's
      // name, else its ChEMBL id. structureLabelSql (lookup-queries.ts) is the same rule for one row.
      await run(sql`CREATE TEMP TABLE lk_str_item ON COMMIT DROP AS
        SELECT s.str_id, coalesce(cn.name, dn.drug_name, ci.chembl_id, 'Structure ' || s.str_id) AS label,
          concat_ws(' · ', s.mol_formula, 'MW ' || round(s.mol_weight::numeric, 2)) AS formula_mw, coalesce(w.n, 0) AS weight
        FROM structures s
        JOIN (SELECT DISTINCT str_id FROM lk_str_raw) r USING (str_id)
        LEFT JOIN (SELECT DISTINCT ON (str_id) str_id, name FROM compounds WHERE str_id IS NOT NULL AND btrim(name) <> '' ORDER BY str_id, gvk_id) cn USING (str_id)
        LEFT JOIN (SELECT DISTINCT ON (str_id) str_id, drug_name FROM clinical_compounds WHERE str_id IS NOT NULL AND btrim(drug_name) <> ''
          ORDER BY str_id, clinical_compound_id) dn USING (str_id)
        LEFT JOIN (SELECT DISTINCT ON (str_id) str_id, chembl_id FROM compounds WHERE str_id IS NOT NULL AND chembl_id IS NOT NULL ORDER BY str_id, gvk_id) ci USING (str_id)
        LEFT JOIN lk_act_str w ON w.id = s.str_id`);
      // The detail names what matched when it is not the label (a synonym, CAS number, ChEMBL id).
      await run(
        insertSource(sql`
        SELECT 'structure', r.field, r.str_id, NULL, r.value, i.label,
          ${present(sql`concat_ws(' · ', CASE WHEN lower(btrim(r.value)) <> lower(i.label) THEN btrim(r.value) END, i.formula_mw)`)}, i.weight
        FROM lk_str_raw r JOIN lk_str_item i USING (str_id)`),
      );
    });

    await step('documents', async () => {
      await run(
        insertSource(sql`
        SELECT 'document', v.field, d.ref_id, NULL, v.value, d.label, d.detail, d.weight
        FROM (
          SELECT d.*, coalesce(w.n, 0) AS weight,
            coalesce(${present(sql`d.title`)}, ${present(sql`d.reference`)}, ${present(sql`d.doi`)}, ${present(sql`d.patent_no`)}, 'Document ' || d.ref_id) AS label,
            CASE WHEN ${present(sql`d.title`)} IS NOT NULL AND ${present(sql`d.reference`)} IS NOT NULL THEN btrim(d.reference)
              ELSE ${present(sql`concat_ws(' · ', d.journal_patent_name, d.year)`)} END AS detail
          FROM documents d LEFT JOIN lk_act_ref w ON w.id = d.ref_id
        ) d
        CROSS JOIN LATERAL (VALUES ('title', d.title), ('citation', d.reference), ('pubmed', d.pubmed_id::text), ('doi', d.doi), ('patent', d.patent_no)) v(field, value)`),
      );
    });

    await step('journals, companies, indications', async () => {
      await run(
        insertSource(sql`
        SELECT 'journal', 'name', NULL::bigint, j.name, j.name, j.name, 'ISSN ' || j.issn, j.weight
        FROM (
          SELECT btrim(d.journal_patent_name) AS name, min(d.issn_no) AS issn, sum(coalesce(w.n, 0)) AS weight
          FROM documents d LEFT JOIN lk_act_ref w ON w.id = d.ref_id
          WHERE d.ref_type = 'journal' AND btrim(d.journal_patent_name) <> '' GROUP BY 1
        ) j`),
      );
      // Companies lead to the activities of their documents and to their development compounds.
      await run(
        insertSource(sql`
        SELECT 'company', 'name', c.company_id, NULL, c.name, c.name, ${present(sql`c.country`)}, coalesce(dw.n, 0) + coalesce(cw.n, 0)
        FROM companies c
        LEFT JOIN (SELECT dc.company_id, sum(w.n) AS n FROM document_companies dc JOIN lk_act_ref w ON w.id = dc.ref_id GROUP BY 1) dw USING (company_id)
        LEFT JOIN (SELECT company_id, count(*) AS n FROM clinical_compound_companies GROUP BY 1) cw USING (company_id)`),
      );
      await run(
        insertSource(sql`
        SELECT 'indication', v.field, i.indication_id, NULL, v.value, i.name, ${present(sql`concat_ws(' · ', i.mesh_id, i.efo_id)`)}, coalesce(w.n, 0)
        FROM indications i
        LEFT JOIN (SELECT indication_id, count(*) AS n FROM clinical_compound_indications GROUP BY 1) w USING (indication_id)
        CROSS JOIN LATERAL (VALUES ('name', i.name), ('mesh', i.mesh_id)) v(field, value)`),
      );
    });

    await step('sources and strains', async () => {
      await run(sql`CREATE TEMP TABLE lk_tax ON COMMIT DROP AS
        SELECT t.*, coalesce(w.n, 0) AS weight FROM taxonomy t
        LEFT JOIN (SELECT ay.taxonomy_id, sum(a.n) AS n FROM assays ay JOIN lk_act_assay a ON a.id = ay.assay_id GROUP BY 1) w USING (taxonomy_id)`);
      await run(
        insertSource(sql`
        SELECT 'source', 'name', t.taxonomy_id, NULL, t.name, t.name,
          concat_ws(' · ', t.rank, CASE WHEN t.rank NOT IN ('genus', 'species') THEN ${present(sql`concat_ws(' ', t.genus, t.species)`)} END), t.weight
        FROM lk_tax t`),
      );
      // Genus, species and strain are plain texts (their id is the text): one entry per distinct value.
      await run(
        insertSource(sql`
        SELECT 'genus', 'name', NULL::bigint, v, v, v, NULL::text, sum(weight) FROM lk_tax, btrim(genus) v WHERE v <> '' GROUP BY v
        UNION ALL
        SELECT 'species', 'name', NULL::bigint, v, v, v, string_agg(DISTINCT btrim(genus), ', '), sum(weight) FROM lk_tax, btrim(species) v WHERE v <> '' GROUP BY v
        UNION ALL
        SELECT 'strain', 'name', NULL::bigint, v, v, v, ${present(sql`string_agg(DISTINCT concat_ws(' ', genus, species), ', ')`)}, sum(weight)
        FROM lk_tax, btrim(strain) v WHERE v <> '' GROUP BY v`),
      );
    });

    await step('vocabularies', async () => {
      await run(
        insertSource(sql`
        SELECT 'activitytype', 'name', NULL::bigint, x.name, x.name, x.name, ${present(sql`at.description`)}, x.n
        FROM (SELECT name, sum(n) AS n FROM (SELECT name, n FROM lk_act_type WHERE name IS NOT NULL UNION ALL SELECT name, 0 FROM activity_types) u GROUP BY name) x
        LEFT JOIN activity_types at USING (name)
        UNION ALL
        SELECT 'mechanism', 'name', NULL::bigint, x.name, x.name, x.name, ${present(sql`ac.description`)}, x.n
        FROM (SELECT name, sum(n) AS n FROM (SELECT mechanism AS name, n FROM lk_act_type WHERE mechanism IS NOT NULL UNION ALL SELECT name, 0 FROM action_types) u GROUP BY name) x
        LEFT JOIN action_types ac USING (name)
        UNION ALL
        SELECT 'category', 'name', NULL::bigint, compound_category, compound_category, compound_category, NULL, count(*)
        FROM compounds WHERE compound_category IS NOT NULL GROUP BY compound_category`),
      );
      const excluded = EXCLUDED_CLINICAL_PHASES.map((p) => p.toLowerCase());
      await run(
        insertSource(sql`
        SELECT 'clinicalphase', 'name', NULL::bigint, name, name, name, string_agg(what, ' · ' ORDER BY what), sum(n)
        FROM (
          SELECT p.name, count(cc.clinical_compound_id) AS n, 'highest phase' AS what
          FROM clinical_phases p LEFT JOIN clinical_compounds cc ON cc.highest_phase_id = p.phase_id GROUP BY p.name
          UNION ALL
          SELECT s.name, count(cc.clinical_compound_id), 'status'
          FROM clinical_statuses s LEFT JOIN clinical_compounds cc ON cc.status_id = s.status_id GROUP BY s.name
        ) x
        WHERE lower(btrim(name)) <> ALL (${excluded}::text[])
        GROUP BY name`),
      );
      await run(sql`INSERT INTO lookup_units_next (activity_type, unit, activities)
        SELECT name, unit, sum(n) FROM (
          SELECT name, btrim(unit) AS unit, n FROM lk_act_type WHERE name IS NOT NULL AND btrim(unit) <> ''
          UNION ALL SELECT name, btrim(standard_unit), 0 FROM activity_types WHERE btrim(standard_unit) <> ''
        ) u GROUP BY name, unit`);
    });

    await step('entries', async () => {
      await run(sql`DELETE FROM lookup_fields`);
      await trx
        .insertInto('lookup_fields')
        .values(LOOKUP_FIELDS.map((f, i) => ({ field_id: i + 1, kind_id: kindId(f.kind), kind: f.kind, field: f.field, words: f.words })))
        .execute();
      // One entry per (item, field, value ignoring case). Items are ranked within their kind: most
      // data first, then alphabetically; entry ids follow rank and field priority.
      await run(sql`INSERT INTO lookup_entries_next (entry_id, field_id, item_id, item_text, value, label, detail, weight, item_rank)
        SELECT row_number() OVER (ORDER BY kind_id, item_rank, field_id, value), field_id, item_id, item_text, value, label, detail, weight, item_rank
        FROM (
          SELECT f.kind_id, f.field_id, s.*,
            dense_rank() OVER (PARTITION BY f.kind_id ORDER BY s.weight DESC, lower(s.label), s.label, s.item_id, s.item_text)::int AS item_rank
          FROM (
            SELECT DISTINCT ON (kind, field, item_id, item_text, lower(v)) kind, field, item_id, item_text, v AS value, btrim(label) AS label, detail, weight
            FROM lk_src, btrim(value) v WHERE v <> '' AND btrim(label) <> ''
            ORDER BY kind, field, item_id, item_text, lower(v), v
          ) s
          JOIN lookup_fields f ON f.kind = s.kind AND f.field = s.field
        ) ranked`);
    });

    await step('terms', async () => {
      const token = (from: RawBuilder<unknown>) => sql`left(${from}, ${sql.lit(TOKEN_LENGTH)})`;
      await run(sql`INSERT INTO lookup_terms_next (kind_id, field_id, word, token, pos, item_rank, entry_id)
        SELECT f.kind_id, e.field_id, false, ${token(sql`lower(e.value)`)}, 1, e.item_rank, e.entry_id
        FROM lookup_entries_next e JOIN lookup_fields f USING (field_id)`);
      // Every position where a word starts (a letter or digit after anything else) begins a token;
      // regexp_split_to_table cuts the value there and the running length gives the position.
      await run(sql`INSERT INTO lookup_terms_next (kind_id, field_id, word, token, pos, item_rank, entry_id)
        SELECT f.kind_id, e.field_id, true, ${token(sql`substr(lower(e.value), w.pos)`)}, w.pos, e.item_rank, e.entry_id
        FROM lookup_entries_next e JOIN lookup_fields f USING (field_id)
        CROSS JOIN LATERAL (
          SELECT (sum(char_length(p.piece)) OVER (ORDER BY p.ord) - char_length(p.piece) + 1)::int AS pos
          FROM regexp_split_to_table(lower(e.value), '(?<![[:alnum:]])(?=[[:alnum:]])') WITH ORDINALITY AS p(piece, ord)
          WHERE p.ord <= 100
        ) w
        WHERE f.words AND w.pos > 1`);
      // A patent number glued to its country code ("WO2004000123") is also found without it.
      await run(sql`INSERT INTO lookup_terms_next (kind_id, field_id, word, token, pos, item_rank, entry_id)
        SELECT f.kind_id, e.field_id, true, ${token(sql`substr(lower(e.value), 3)`)}, 3, e.item_rank, e.entry_id
        FROM lookup_entries_next e JOIN lookup_fields f USING (field_id)
        WHERE f.kind = 'document' AND f.field = 'patent' AND lower(e.value) ~ '^[a-z]{2}[0-9]'`);
    });

    await step('indexes', async () => {
      for (const ddl of lookupDdl('_next').indexes) await run(sql.raw(ddl));
      await run(sql`DROP TABLE lookup_entries, lookup_terms, lookup_units`);
      for (const table of SWAPPED_TABLES) await run(sql`ALTER TABLE ${sql.table(`${table}_next`)} RENAME TO ${sql.table(table)}`);
      for (const index of SWAPPED_INDEXES) await run(sql`ALTER INDEX ${sql.table(nextName(index))} RENAME TO ${sql.table(index)}`);
    });

    const { rows } = await sql<{ entries: number; terms: number; units: number }>`SELECT
      (SELECT count(*) FROM lookup_entries)::int AS entries, (SELECT count(*) FROM lookup_terms)::int AS terms,
      (SELECT count(*) FROM lookup_units)::int AS units`.execute(trx);
    return rows[0] ?? { entries: 0, terms: 0, units: 0 };
  });
  // Statistics for the planner, and the visibility map that lets the term indexes answer alone.
  await sql`VACUUM ANALYZE lookup_entries, lookup_terms, lookup_units`.execute(db);
  onProgress?.({ step: 'done', stepsDone: STEPS.length, stepsTotal: STEPS.length });
  return { ...summary, seconds: (performance.now() - started) / 1000 };
}
