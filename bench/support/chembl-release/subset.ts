import Database from 'better-sqlite3';
import { shuffled, STREAM } from './random.ts';

/**
 * What the generator grows a release from: the real rows of the ChEMBL subset
 * (../shared/data/chembl-subset, CC BY-SA 3.0). Only read here; nothing of it is copied into the
 * repository. Everything is held in memory: the subset is small (49k activities, 74k structures).
 */

export type Row = Record<string, unknown>;
export interface Column {
  name: string;
  type: string;
}

/** The ChEMBL tables a generated release holds (the others the importer reads are listed in generate.ts). */
export const GENERATED_TABLES = [
  'source',
  'activity_stds_lookup',
  'bioassay_ontology',
  'target_dictionary',
  'target_components',
  'component_sequences',
  'docs',
  'assays',
  'molecule_dictionary',
  'compound_structures',
  'molecule_hierarchy',
  'activities',
  'ligand_eff',
] as const;
export type GeneratedTable = (typeof GENERATED_TABLES)[number];

/** A table's definition in the subset: its columns (official ChEMBL names and types), key and unique columns. */
export interface TableShape {
  columns: Column[];
  primaryKey: string | null;
  unique: string[];
}

export interface ActivityTemplate {
  row: Row;
  /** The template's molecule has a structure in the subset (else: peptide, mixture, missing SMILES). */
  hasStructure: boolean;
  ligandEff: Row | null;
}

export interface Subset {
  file: string;
  shapes: Map<GeneratedTable, TableShape>;
  /** Copied as they are. */
  vocabulary: Record<'source' | 'activity_stds_lookup' | 'bioassay_ontology', Row[]>;
  /** Real targets: those with activities in the subset first (most activities first), then the rest in seeded order. */
  targets: Row[];
  componentsByTid: Map<number, Row[]>;
  componentSequences: Map<number, Row>;
  docs: Row[];
  assays: Row[];
  assaysByTid: Map<number, Row[]>;
  activities: ActivityTemplate[];
  moleculesWithStructure: Row[];
  moleculesWithoutStructure: Row[];
  /** Distinct real SMILES, in seeded order: the parents analogues are enumerated from. */
  parents: string[];
  /** Share of molecules without any structure (own or parent's), as in the subset. */
  noStructureShare: number;
}

function shapeOf(db: Database.Database, table: string): TableShape {
  const info = db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; type: string; pk: number }[];
  if (info.length === 0) throw new Error(`the subset has no table ${table}`);
  const indexes = db.prepare(`PRAGMA index_list("${table}")`).all() as { name: string; unique: number; origin: string }[];
  const unique = indexes
    .filter((i) => i.unique && i.origin === 'u')
    .flatMap((i) => (db.prepare(`PRAGMA index_info("${i.name}")`).all() as { name: string }[]).map((c) => c.name));
  return { columns: info.map((c) => ({ name: c.name, type: c.type })), primaryKey: info.find((c) => c.pk === 1)?.name ?? null, unique };
}

function groupBy(rows: Row[], column: string): Map<number, Row[]> {
  const groups = new Map<number, Row[]>();
  for (const row of rows) {
    const key = Number(row[column]);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return groups;
}

/** Targets with activities (most first), then every other target in seeded order. */
function orderTargets(db: Database.Database, seed: number): Row[] {
  const withActivities = db
    .prepare(`SELECT t.* FROM target_dictionary t JOIN (
      SELECT s.tid, count(*) AS n FROM activities a JOIN assays s ON s.assay_id = a.assay_id GROUP BY s.tid) c ON c.tid = t.tid
    ORDER BY c.n DESC, t.tid`)
    .all() as Row[];
  const used = new Set(withActivities.map((t) => Number(t.tid)));
  const rest = (db.prepare('SELECT * FROM target_dictionary ORDER BY tid').all() as Row[]).filter((t) => !used.has(Number(t.tid)));
  return [...withActivities, ...shuffled(rest, seed, STREAM.order)];
}

/** Molecules with a structure of their own, or (salts) their parent's: the importer's rule. */
const HAS_STRUCTURE = `(EXISTS (SELECT 1 FROM compound_structures cs WHERE cs.molregno = %m AND coalesce(cs.canonical_smiles, cs.molfile) IS NOT NULL)
  OR EXISTS (SELECT 1 FROM molecule_hierarchy mh JOIN compound_structures p ON p.molregno = mh.parent_molregno
             WHERE mh.molregno = %m AND mh.parent_molregno <> %m AND coalesce(p.canonical_smiles, p.molfile) IS NOT NULL))`;
const hasStructure = (column: string) => HAS_STRUCTURE.replaceAll('%m', column);

function readActivities(db: Database.Database, seed: number): ActivityTemplate[] {
  const rows = db
    .prepare(`SELECT a.*, ${hasStructure('a.molregno')} AS _has_structure FROM activities a ORDER BY a.activity_id`)
    .all() as Row[];
  const ligand = new Map((db.prepare('SELECT * FROM ligand_eff').all() as Row[]).map((r) => [Number(r.activity_id), r]));
  const templates = rows.map((row) => {
    const { _has_structure: flag, ...rest } = row;
    return { row: rest, hasStructure: Number(flag) === 1, ligandEff: ligand.get(Number(row.activity_id)) ?? null };
  });
  return shuffled(templates, seed, STREAM.template);
}

export function readSubset(file: string, seed: number): Subset {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const shapes = new Map(GENERATED_TABLES.map((t) => [t, shapeOf(db, t)] as const));
    const all = (sql: string) => db.prepare(sql).all() as Row[];
    const assays = all('SELECT * FROM assays ORDER BY assay_id');
    const union = 'SELECT molregno FROM compound_structures UNION SELECT molregno FROM molecule_dictionary';
    const molecules = Number(db.prepare(`SELECT count(*) FROM (${union})`).pluck().get());
    const withStructure = Number(
      db
        .prepare(`SELECT count(*) FROM (${union}) k WHERE ${hasStructure('k.molregno')}`)
        .pluck()
        .get(),
    );
    return {
      file,
      shapes,
      vocabulary: {
        source: all('SELECT * FROM source ORDER BY src_id'),
        activity_stds_lookup: all('SELECT * FROM activity_stds_lookup ORDER BY std_act_id'),
        bioassay_ontology: all('SELECT * FROM bioassay_ontology ORDER BY bao_id'),
      },
      targets: orderTargets(db, seed),
      componentsByTid: groupBy(all('SELECT * FROM target_components ORDER BY targcomp_id'), 'tid'),
      componentSequences: new Map(all('SELECT * FROM component_sequences').map((r) => [Number(r.component_id), r])),
      docs: shuffled(all('SELECT * FROM docs ORDER BY doc_id'), seed, STREAM.docTemplate),
      assays: shuffled([...assays], seed, STREAM.template),
      assaysByTid: groupBy(assays, 'tid'),
      activities: readActivities(db, seed),
      moleculesWithStructure: all(`SELECT * FROM molecule_dictionary md WHERE ${hasStructure('md.molregno')} ORDER BY molregno`),
      moleculesWithoutStructure: all(`SELECT * FROM molecule_dictionary md WHERE NOT ${hasStructure('md.molregno')} ORDER BY molregno`),
      parents: shuffled(
        db
          .prepare('SELECT DISTINCT canonical_smiles FROM compound_structures WHERE canonical_smiles IS NOT NULL ORDER BY 1')
          .pluck()
          .all() as string[],
        seed,
        STREAM.order,
      ),
      noStructureShare: (molecules - withStructure) / molecules,
    };
  } finally {
    db.close();
  }
}
