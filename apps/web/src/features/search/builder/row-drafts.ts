import type {
  ACTIVITY_PREFIXES,
  ASSAY_TYPES,
  BIBLIOGRAPHY_SOURCES,
  DEGRADER_TYPES,
  PROPERTY_FIELDS,
  STRUCTURE_CATEGORIES,
  STRUCTURE_FEATURES,
  STRUCTURE_INPUT_TYPES,
  SearchOperator,
  SelectedOption,
  TargetTerm,
  TreeView,
} from '@kb/contracts/search';
import { DEFAULT_OPERATOR, defaultStructureCategory } from '@kb/contracts/search';
import type { ResultEntity } from '@kb/contracts/result-tabs';
import { countNoun } from '../../../app/format/plural.ts';

/**
 * What the builder edits: one draft per search row. Drafts hold what the user typed (numbers may
 * be missing, id lists may hold a mistyped entry) plus labels for display; `toCriteriaRow` turns a
 * draft into the contract's row and reports what is wrong with it, field by field.
 */

export type StructureInputType = (typeof STRUCTURE_INPUT_TYPES)[number];
export type StructureCategory = (typeof STRUCTURE_CATEGORIES)[number];
type StructureFeature = (typeof STRUCTURE_FEATURES)[number];
export type PropertyField = (typeof PROPERTY_FIELDS)[keyof typeof PROPERTY_FIELDS][number];
export type ActivityPrefix = (typeof ACTIVITY_PREFIXES)[number];
export type BibliographySource = (typeof BIBLIOGRAPHY_SOURCES)[number];
export type DegraderType = (typeof DEGRADER_TYPES)[number];
export type AssayType = (typeof ASSAY_TYPES)[number];

/** A number field: null while empty. */
type NumberDraft = number | null;

/** An item picked from an autocomplete (or typed and confirmed), kept with its label for display. */
export interface PickedItem {
  id: number | string;
  label: string;
  detail?: string | null;
}

/** Which field a target look-up searches (spec §2: name, UniProt, gene, Entrez, PDB). */
export type TargetField = 'any' | 'name' | 'uniprot' | 'gene' | 'entrez' | 'pdb';

interface DraftBase {
  /** Client-side identity of the row (React key, error map key); never sent. */
  key: string;
  operator: SearchOperator | null;
  fileName?: string | null;
}

export interface StructureDraft extends DraftBase {
  selectedOption: 'structure';
  inputType: StructureInputType;
  value: string;
  category: StructureCategory;
  feature: StructureFeature;
  similarityMin: NumberDraft;
  similarityMax: NumberDraft;
  /** Only the N nearest in the similarity range (empty: all of them). */
  similarityNearest: NumberDraft;
  /** Spec §5: set when the value came from a look-up; the field is shown locked. */
  readOnly: boolean;
  properties: Partial<Record<PropertyField, NumberDraft>>;
  /** As typed or uploaded; digits only are valid (spec §5). */
  strIds: string[];
  casNumbers: string[];
  /** Added by the structure filter of the results (docs/results.md "Structure filter"). */
  resultFilter?: boolean;
}

interface TargetDraft extends DraftBase {
  selectedOption: 'target';
  field: TargetField;
  targets: TargetTerm[];
}

export interface PatentDraft {
  countryCode: string;
  year: NumberDraft;
  patentNo: string;
}

export interface JournalDraft {
  journalName: string;
  year: NumberDraft;
  volume: string;
  issue: string;
  pageNo: string;
}

export interface BibliographyDraft extends DraftBase {
  selectedOption: 'bibliography';
  documents: PickedItem[];
  pubmedIds: string[];
  dois: string[];
  patents: PatentDraft[];
  journals: JournalDraft[];
  authors: string[];
  fromYear: NumberDraft;
  toYear: NumberDraft;
  companies: string[];
  sources: BibliographySource[];
}

export interface CompanyDraft extends DraftBase {
  selectedOption: 'company';
  companies: PickedItem[];
}

export interface DegraderDraft extends DraftBase {
  selectedOption: 'degrader';
  degraderTypes: DegraderType[];
  ligases: string[];
}

interface ClinicalPhaseDraft extends DraftBase {
  selectedOption: 'clinicalphase';
  phases: string[];
}

export interface StrainDraft {
  genus: string;
  species: string;
  strainType: string;
}

export interface SourceDraft extends DraftBase {
  selectedOption: 'source';
  taxonomy: PickedItem[];
  strains: StrainDraft[];
}

export interface IndicationDraft extends DraftBase {
  selectedOption: 'indication';
  indications: PickedItem[];
}

export interface ActivityTermDraft {
  activityType: string;
  activityUom: string;
  prefix: ActivityPrefix | null;
  minValue: NumberDraft;
  maxValue: NumberDraft;
}

export interface ActivityDraft extends DraftBase {
  selectedOption: 'activitytypes';
  activities: ActivityTermDraft[];
}

interface AssayDraft extends DraftBase {
  selectedOption: 'assay';
  assayTypes: AssayType[];
  methodNames: string[];
}

interface MechanismDraft extends DraftBase {
  selectedOption: 'activitymechanism';
  mechanisms: string[];
}

interface CategoryDraft extends DraftBase {
  selectedOption: 'compoundcategories';
  categories: string[];
}

/** A node picked in a tree panel: `ids` are what the row sends. */
export interface TreePick {
  id: string;
  label: string;
  ids: string[];
  count?: number;
}

export interface TreeDraft extends DraftBase {
  selectedOption: 'treeview';
  tree: TreeView;
  nodes: TreePick[];
}

/**
 * Rows picked in a results tab (a new search by selection). Read-only in the builder: the ids
 * were chosen in the results, where a new selection is made.
 */
export interface SelectionDraft extends DraftBase {
  selectedOption: 'selection';
  entity: ResultEntity;
  ids: number[];
  /** What the results said about the selection ("12 activities of search …"). */
  label: string;
}

/**
 * "In collection …": one of the user's collections (owned or shared), by id. The name is kept for
 * the row and the summaries; the search reads the collection's members when it runs.
 */
export interface CollectionDraft extends DraftBase {
  selectedOption: 'collection';
  /** Null until a collection is chosen (the row is then empty and left out). */
  collectionId: number | null;
  /** The collection's name when it was chosen ('' until then). */
  label: string;
}

export type RowDraft =
  | StructureDraft
  | TargetDraft
  | BibliographyDraft
  | CompanyDraft
  | DegraderDraft
  | ClinicalPhaseDraft
  | SourceDraft
  | IndicationDraft
  | ActivityDraft
  | AssayDraft
  | MechanismDraft
  | CategoryDraft
  | TreeDraft
  | SelectionDraft
  | CollectionDraft;

export type DraftOf<O extends SelectedOption> = Extract<RowDraft, { selectedOption: O }>;

let keyCounter = 0;
/** A key unique within this page load (crypto.randomUUID where available). */
export function newRowKey(): string {
  keyCounter += 1;
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `row-${Date.now()}-${keyCounter}`;
}

export function emptyActivityTerm(): ActivityTermDraft {
  return { activityType: '', activityUom: '', prefix: null, minValue: null, maxValue: null };
}

export function emptyPatent(): PatentDraft {
  return { countryCode: '', year: null, patentNo: '' };
}

export function emptyJournal(): JournalDraft {
  return { journalName: '', year: null, volume: '', issue: '', pageNo: '' };
}

export function emptyStrain(): StrainDraft {
  return { genus: '', species: '', strainType: '' };
}

/** A new, empty row of an option (a tree row needs its tree). */
export function newDraft(option: Exclude<SelectedOption, 'treeview'>): RowDraft;
export function newDraft(option: 'treeview', tree: TreeView): RowDraft;
export function newDraft(option: SelectedOption, tree?: TreeView): RowDraft {
  const base = { key: newRowKey(), operator: DEFAULT_OPERATOR, fileName: null };
  switch (option) {
    case 'structure':
      return {
        ...base,
        selectedOption: 'structure',
        // A chemist's structure row is mostly SMILES (pasted or drawn); Name is one click away.
        inputType: 'smiles',
        value: '',
        category: defaultStructureCategory('smiles'),
        feature: 'desalted',
        similarityMin: null,
        similarityMax: null,
        similarityNearest: null,
        readOnly: false,
        properties: {},
        strIds: [],
        casNumbers: [],
      };
    case 'target':
      return { ...base, selectedOption: 'target', field: 'any', targets: [] };
    case 'bibliography':
      return {
        ...base,
        selectedOption: 'bibliography',
        documents: [],
        pubmedIds: [],
        dois: [],
        patents: [],
        journals: [],
        authors: [],
        fromYear: null,
        toYear: null,
        companies: [],
        sources: [],
      };
    case 'company':
      return { ...base, selectedOption: 'company', companies: [] };
    case 'degrader':
      return { ...base, selectedOption: 'degrader', degraderTypes: [], ligases: [] };
    case 'clinicalphase':
      return { ...base, selectedOption: 'clinicalphase', phases: [] };
    case 'source':
      return { ...base, selectedOption: 'source', taxonomy: [], strains: [] };
    case 'indication':
      return { ...base, selectedOption: 'indication', indications: [] };
    case 'activitytypes':
      return { ...base, selectedOption: 'activitytypes', activities: [emptyActivityTerm()] };
    case 'assay':
      return { ...base, selectedOption: 'assay', assayTypes: [], methodNames: [] };
    case 'activitymechanism':
      return { ...base, selectedOption: 'activitymechanism', mechanisms: [] };
    case 'compoundcategories':
      return { ...base, selectedOption: 'compoundcategories', categories: [] };
    case 'treeview':
      return { ...base, selectedOption: 'treeview', tree: tree ?? 'Target', nodes: [] };
    case 'selection':
      // Only a new search by selection fills one; an empty one stays out of the search.
      return { ...base, selectedOption: 'selection', entity: 'structure', ids: [], label: '' };
    case 'collection':
      return { ...base, selectedOption: 'collection', collectionId: null, label: '' };
  }
}

/** Human names of the options (row headers, summaries). */
export const OPTION_LABELS: Record<SelectedOption, string> = {
  structure: 'Structure',
  target: 'Target/Enzyme/Protein',
  bibliography: 'Bibliography',
  company: 'Company',
  degrader: 'Degrader Type',
  clinicalphase: 'Clinical Phase or Status',
  source: 'Source',
  indication: 'Indication',
  activitytypes: 'Activity Types',
  assay: 'Assay',
  activitymechanism: 'Activity Mechanism',
  compoundcategories: 'Compound Categories',
  treeview: 'Tree View',
  selection: 'Selection from results',
  collection: 'In collection',
};

/** What the rows of each kind of record are called ("12 activities"). */
const ENTITY_NAMES: Record<ResultEntity, readonly [one: string, many: string]> = {
  structure: ['structure', 'structures'],
  activity: ['activity', 'activities'],
  assay: ['assay', 'assays'],
  reference: ['document', 'documents'],
  clinicalcompound: ['development compound', 'development compounds'],
};

/** "12 activities", "1 structure". */
export function selectionCountText(entity: ResultEntity, count: number): string {
  const [one, other] = ENTITY_NAMES[entity];
  return countNoun(count, { one, other });
}

/** Names of the tree views as users know them (Taxonomy travels as SourceOntologyTreeView, spec §4). */
export const TREE_LABELS: Record<TreeView, string> = {
  Target: 'Target',
  Indication: 'Indication',
  Pharmacokinetics: 'Pharmacokinetics',
  Toxicity: 'Toxicity',
  SourceOntologyTreeView: 'Taxonomy',
  Pathways: 'Pathways',
  ClinicalPhase: 'Clinical Phase',
  AssayMethodName: 'Assay Method Name',
  Bibliography: 'Bibliography',
  Endpoint: 'Endpoint',
};

/** The header of a row: the option, and for a tree row which tree. */
export function rowTitle(draft: RowDraft): string {
  if (draft.selectedOption === 'structure' && draft.resultFilter) return 'Structure (filter from the results)';
  return draft.selectedOption === 'treeview' ? `${TREE_LABELS[draft.tree]} tree` : OPTION_LABELS[draft.selectedOption];
}
