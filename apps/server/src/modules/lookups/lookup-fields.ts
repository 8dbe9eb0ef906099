/**
 * What the look-up index holds: kinds of items and their searchable fields. The position in these
 * lists is the code stored in lookup_terms/lookup_entries (field_id, kind_id), and within a kind
 * the field order is its priority: when one item matches a term in several fields equally well,
 * the answer names the first (e.g. "EGFR" is reported as the gene symbol, not as a synonym).
 * Changing the lists changes the codes: the look-up tables are then rebuilt on first use.
 */

const LOOKUP_KINDS = [
  'target',
  'structure',
  'document',
  'journal',
  'company',
  'indication',
  'source',
  'genus',
  'species',
  'strain',
  'activitytype',
  'mechanism',
  'category',
  'clinicalphase',
] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

export interface LookupFieldDef {
  kind: LookupKind;
  /** Reported as `matchedOn`. */
  field: string;
  /** Also match words inside the value (names, titles), not only its start (identifiers). */
  words: boolean;
}

const def = (kind: LookupKind, field: string, words: boolean): LookupFieldDef => ({ kind, field, words });

export const LOOKUP_FIELDS: readonly LookupFieldDef[] = [
  def('target', 'name', true),
  def('target', 'gene', false),
  def('target', 'uniprot', false),
  def('target', 'entrez', false),
  def('target', 'pdb', false),
  def('target', 'synonym', true),
  def('structure', 'name', true),
  def('structure', 'synonym', true),
  def('structure', 'cas', false),
  def('structure', 'chemblid', false),
  def('document', 'title', true),
  def('document', 'pubmed', false),
  def('document', 'doi', false),
  // Words too: "US-7642253-B2" is found by "7642253"; "WO2004000123" by "2004000123" (an extra token).
  def('document', 'patent', true),
  def('document', 'citation', true),
  def('journal', 'name', true),
  def('company', 'name', true),
  def('indication', 'name', true),
  def('indication', 'mesh', false),
  def('source', 'name', true),
  def('genus', 'name', true),
  def('species', 'name', true),
  def('strain', 'name', true),
  def('activitytype', 'name', true),
  def('mechanism', 'name', true),
  def('category', 'name', true),
  def('clinicalphase', 'name', true),
];

export function kindId(kind: LookupKind): number {
  return LOOKUP_KINDS.indexOf(kind) + 1;
}

export function fieldId(kind: LookupKind, field: string): number {
  const index = LOOKUP_FIELDS.findIndex((f) => f.kind === kind && f.field === field);
  if (index < 0) throw new Error(`no look-up field ${kind}.${field}`);
  return index + 1;
}

/** The field of a field_id (as stored in the look-up tables). */
export function fieldById(id: number): LookupFieldDef {
  const found = LOOKUP_FIELDS[id - 1];
  if (!found) throw new Error(`no look-up field with id ${id}`);
  return found;
}

/** Spec §5: the clinical-phase autocomplete never offers these. */
export const EXCLUDED_CLINICAL_PHASES = ['Pre-registration', 'Clinical Phase Unknown', 'Phase IV'] as const;

/** Tokens are cut to this many characters; longer terms are checked against the whole value. */
export const TOKEN_LENGTH = 64;
