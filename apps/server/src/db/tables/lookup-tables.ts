/**
 * Kysely types of the tables the lookups module's migration adds (0004_lookups.sql);
 * `Database` (db/schema.ts) extends this. All four are derived data, rebuilt by `refreshLookupTerms`.
 */

/** Which (kind, field) a field_id stands for. */
interface LookupFieldsTable {
  field_id: number;
  kind_id: number;
  kind: string;
  field: string;
  words: boolean;
}

/** One searchable value of one item (a target's name, one of its synonyms, a PDB id ...). */
export interface LookupEntriesTable {
  entry_id: number;
  field_id: number;
  /** The item's numeric id (target_id, str_id, ref_id ...), or null for vocabularies. */
  item_id: number | null;
  /** The item's text, for vocabularies without ids (activity types, journals, strains ...). */
  item_text: string | null;
  value: string;
  label: string;
  detail: string | null;
  /** How many activities (or records) the item leads to. */
  weight: number;
  /** Position of the item in its kind: weight descending, then label. */
  item_rank: number;
}

/** A token of an entry: its whole value (word = false) or a suffix starting at a word inside it. */
interface LookupTermsTable {
  kind_id: number;
  field_id: number;
  word: boolean;
  token: string;
  /** 1-based character position of the token in lower(value). */
  pos: number;
  item_rank: number;
  entry_id: number;
}

/** Units used with an activity type, with how many activities use them. */
interface LookupUnitsTable {
  activity_type: string;
  unit: string;
  activities: number;
}

export interface LookupTables {
  lookup_fields: LookupFieldsTable;
  lookup_entries: LookupEntriesTable;
  lookup_terms: LookupTermsTable;
  lookup_units: LookupUnitsTable;
}
