/**
 * Fixed vocabularies of the demo knowledge base (its real targets are in catalog-targets.ts):
 * medicinal-chemistry scaffolds and substituents, assay recipes, companies, journals, taxonomy and
 * the indication tree. Only the molecules, numbers and documents are synthetic. The
 * lookup vocabulary every knowledge base shares (units, endpoint trees, activity types, phases) is
 * in ../lookup-vocabulary.ts, where the ChEMBL importer reads it too.
 */

type DegraderKind = 'monovalent' | 'bivalent';

/**
 * A scaffold template: `{R1}`.. are substituent slots (always written as a branch), `{L}` a raw
 * linker slot. Substituents write ring closures as `?`, replaced by a slot-specific `%9n` so they
 * never clash with the scaffold's own open rings.
 */
export interface DemoScaffold {
  code: string;
  name: string;
  template: string;
  /** Primary target genes (a series picks one) and anti-targets for selectivity panels. */
  targets: string[];
  mechanism: string;
  degrader?: { kind: DegraderKind; ligase: 'CRBN' | 'VHL' };
}

export const SCAFFOLDS: DemoScaffold[] = [
  {
    code: 'QZN',
    name: '4-anilinoquinazoline',
    template: 'COc1cc2ncnc(Nc3ccc({R1})c({R2})c3)c2cc1({R3})',
    targets: ['EGFR', 'ERBB2'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'APY',
    name: '2-anilinopyrimidine',
    template: 'c1cc(-c2ccc({R1})cc2)nc(Nc2ccc({R2})c({R3})c2)n1',
    targets: ['ABL1', 'CDK2', 'SRC'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'PPY',
    name: 'pyrazolo[3,4-d]pyrimidin-4-amine',
    template: 'Nc1ncnc2c1c(-c1ccc({R1})cc1)nn2C1CCN({R2})CC1({R3})',
    targets: ['BTK', 'SRC'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'PYP',
    name: 'pyrrolo[2,3-d]pyrimidine',
    template: 'c1nc(N2CCC({R1})C({R2})C2)c2cc({R3})[nH]c2n1',
    targets: ['JAK2', 'JAK3'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'IND',
    name: 'oxindole',
    template: 'O=C1Nc2ccc({R1})cc2C1=Cc1[nH]c({R2})cc1C(=O)NCCN({R3})',
    targets: ['KDR', 'MET'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'BIA',
    name: 'biaryl urea',
    template: 'O=C(Nc1ccc(Oc2ccnc({R1})c2)cc1)Nc1ccc({R2})c({R3})c1',
    targets: ['BRAF', 'KDR', 'MAPK14'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'MOR',
    name: 'morpholino-triazine',
    template: 'C1COCCN1c1nc(-c2ccc({R1})nc2)nc(N2CCN({R2})CC2({R3}))n1',
    targets: ['PIK3CA'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'APZ',
    name: 'arylpiperazine',
    template: 'c1cc({R1})c({R2})c(N2CCN(CCCCC({R3}))CC2)c1',
    targets: ['DRD2', 'HTR2A'],
    mechanism: 'ANTAGONIST',
  },
  {
    code: 'ARE',
    name: 'aryloxypropanolamine',
    template: 'OC(COc1ccc({R1})cc1({R2}))CNC(C)(C)C({R3})',
    targets: ['ADRB2'],
    mechanism: 'AGONIST',
  },
  {
    code: 'ARI',
    name: '2-arylindole',
    template: 'Oc1ccc(-c2[nH]c3ccc({R1})cc3c2C({R2}))cc1({R3})',
    targets: ['ESR1'],
    mechanism: 'ANTAGONIST',
  },
  { code: 'ANL', name: 'hydroxy-anilide', template: 'CC(O)(C({R3}))C(=O)Nc1ccc({R1})c({R2})c1', targets: ['AR'], mechanism: 'ANTAGONIST' },
  {
    code: 'TZD',
    name: 'thiazolidinedione',
    template: 'O=C1NC(=O)C(Cc2ccc(OCCN({R3})c3ccc({R1})cc3({R2}))cc2)S1',
    targets: ['PPARG'],
    mechanism: 'AGONIST',
  },
  {
    code: 'ISX',
    name: 'dimethylisoxazole',
    template: 'Cc1noc(C)c1-c1ccc2c(c1)nc({R1})n2C({R2})c1ccc({R3})cc1',
    targets: ['BRD4'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'HXA',
    name: 'benzohydroxamic acid',
    template: 'ONC(=O)c1ccc(CNC(=O)c2ccc({R1})c({R2})c2)cc1({R3})',
    targets: ['HDAC1'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'PTZ',
    name: 'phthalazinone',
    template: 'O=c1[nH]nc(Cc2ccc({R1})c(C(=O)N3CCN({R2})CC3)c2)c2cc({R3})ccc12',
    targets: ['PARP1'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'DAP',
    name: '1,5-diarylpyrazole',
    template: 'NS(=O)(=O)c1ccc(-n2nc(C({R2}))cc2-c2ccc({R1})c({R3})c2)cc1',
    targets: ['PTGS2'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'IDN',
    name: 'indanone-benzylpiperidine',
    template: 'O=C1c2cc({R1})c(OC)cc2CC1CC1CCN(Cc2ccc({R2})c({R3})c2)CC1',
    targets: ['ACHE'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'OXZ',
    name: 'oxazolidinone thiophene-carboxamide',
    template: 'O=C(NCC1CN(c2ccc({R2})c({R3})c2)C(=O)O1)c1ccc({R1})s1',
    targets: ['F10'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'AMP',
    name: 'aminopiperidinyl-uracil',
    template: 'NC1CCCN(c2cc(=O)n(C({R3}))c(=O)n2Cc2ccc({R1})cc2({R2}))C1',
    targets: ['DPP4'],
    mechanism: 'INHIBITOR',
  },
  {
    code: 'IMD',
    name: 'isoindolinone glutarimide (molecular glue)',
    template: 'O=C1CCC(N2Cc3c(cc({R2})cc3({R1}))C2=O)C(=O)N1',
    targets: ['BRD4', 'CDK2'],
    mechanism: 'DEGRADER',
    degrader: { kind: 'monovalent', ligase: 'CRBN' },
  },
  {
    code: 'PTC',
    name: 'thalidomide-linker-quinazoline PROTAC',
    template: 'O=C1CCC(N2C(=O)c3cccc(NC{L}C(=O)Nc4ccc(Nc5ncnc6cc(OC)c({R1})cc56)cc4({R2}))c3C2=O)C(=O)N1',
    targets: ['EGFR', 'ERBB2'],
    mechanism: 'DEGRADER',
    degrader: { kind: 'bivalent', ligase: 'CRBN' },
  },
  {
    code: 'VHP',
    name: 'VHL-ligand-linker-isoxazole PROTAC',
    template: 'Cc1ncsc1-c1ccc(CNC(=O)C2CC(O)CN2C(=O)C(NC(=O)C{L}Oc2ccc(-c3c(C)noc3C)cc2({R1}))C(C)(C)C)cc1({R2})',
    targets: ['BRD4'],
    mechanism: 'DEGRADER',
    degrader: { kind: 'bivalent', ligase: 'VHL' },
  },
];

/** Substituents for branch slots; `?` marks the substituent's own ring closure. */
export const SUBSTITUENTS: string[] = [
  '[H]',
  'F',
  'Cl',
  'Br',
  'C',
  'CC',
  'C(C)C',
  'C?CC?',
  'C(F)(F)F',
  'OC',
  'OCC',
  'OC(F)(F)F',
  'OC(C)C',
  'O',
  'N',
  'NC',
  'N(C)C',
  'C#N',
  'C(N)=O',
  'C(=O)NC',
  'C(=O)N(C)C',
  'NC(C)=O',
  'S(C)(=O)=O',
  'S(N)(=O)=O',
  'C(=O)O',
  'C(=O)OC',
  'CO',
  'CN(C)C',
  'CCN(C)C',
  'N?CCOCC?',
  'N?CCN(C)CC?',
  'N?CCCC?',
  'N?CCCCC?',
  'C?CCNCC?',
  'CN?CCOCC?',
  'c?ccccc?',
  'c?ccncc?',
  'c?cccnc?',
  'c?ccco?',
  'c?cccs?',
  'c?cnn(C)c?',
  'c?ncc[nH]?',
  'OCCOC',
  'OCCN(C)C',
  'OCCN?CCOCC?',
  'C#C',
  'C=C',
  'CCC',
  'CC(C)(C)',
  'C(C)(C)O',
  'OC?CC?',
  'C?CCOCC?',
  'SC',
  'NS(C)(=O)=O',
  'c?ccc(F)cc?',
  'c?ccc(Cl)cc?',
  'Oc?ccccc?',
  'Cc?ccccc?',
  'CC#N',
  'C(F)F',
];

/** Raw linker pieces for bivalent degraders (PEG and alkyl chains of growing length). */
export const LINKERS: string[] = [
  'C',
  'CC',
  'CCC',
  'CCCC',
  'CCCCC',
  'CCOCC',
  'COCCOC',
  'CCOCCOCC',
  'CCOCCOCCOCC',
  'CCCCCCC',
  'CC#CC',
  'CCN(C)CC',
];

export const COMPANIES: { name: string; address: string; country: string }[] = [
  { name: 'DEMO Aurora Therapeutics', address: '1 Harbour Way, Cambridge, MA 02142', country: 'US' },
  { name: 'DEMO Kestrel Pharma AG', address: 'Grenzacherstrasse 10, 4058 Basel', country: 'CH' },
  { name: 'DEMO Meridian Biosciences Ltd', address: '22 Science Park, Cambridge CB4 0WG', country: 'GB' },
  { name: 'DEMO Sakura Drug Discovery KK', address: '3-5 Nihonbashi, Chuo-ku, Tokyo', country: 'JP' },
  { name: 'DEMO Lindqvist Medicinal AB', address: 'Medicinaregatan 8, 413 90 Göteborg', country: 'SE' },
  { name: 'DEMO Rhine Valley Chemie GmbH', address: 'Industriepark 4, 65926 Frankfurt', country: 'DE' },
  { name: 'DEMO Pacific Crest Oncology Inc', address: '4000 Shoreline Blvd, South San Francisco, CA 94080', country: 'US' },
  { name: 'DEMO Hanseatic Neuro GmbH', address: 'Am Sandtorkai 5, 20457 Hamburg', country: 'DE' },
  { name: 'DEMO Lotus Biopharma Co', address: '88 Zhangjiang Road, Shanghai 201203', country: 'CN' },
  { name: 'DEMO Institute of Molecular Medicine (academic)', address: 'Campus Nord 12, 69120 Heidelberg', country: 'DE' },
];

export const JOURNALS: { name: string; issn: string }[] = [
  { name: 'J. Med. Chem.', issn: '0022-2623' },
  { name: 'Bioorg. Med. Chem. Lett.', issn: '0960-894X' },
  { name: 'Eur. J. Med. Chem.', issn: '0223-5234' },
  { name: 'ACS Med. Chem. Lett.', issn: '1948-5875' },
  { name: 'Bioorg. Med. Chem.', issn: '0968-0896' },
  { name: 'J. Nat. Prod.', issn: '0163-3864' },
];

export const PATENT_OFFICES: { country: string; name: string; applicationTypes: string[] }[] = [
  { country: 'WO', name: 'World Intellectual Property Organization', applicationTypes: ['PCT application'] },
  { country: 'US', name: 'United States Patent and Trademark Office', applicationTypes: ['Utility application', 'Granted patent'] },
  { country: 'EP', name: 'European Patent Office', applicationTypes: ['Application', 'Granted patent'] },
  { country: 'CN', name: 'China National Intellectual Property Administration', applicationTypes: ['Invention application'] },
];

export const SURNAMES = [
  'Smith',
  'Müller',
  'Tanaka',
  'García',
  'Chen',
  'Rossi',
  'Novak',
  'Johansson',
  'Kowalski',
  'Dubois',
  'Patel',
  'Kim',
  'Okafor',
  'Silva',
  'Ivanova',
  'Nguyen',
  'Schneider',
  'Yamamoto',
  'Fischer',
  'Martin',
];
export const INITIALS = ['A.', 'B.', 'C.', 'D.', 'E.', 'F.', 'G.', 'H.', 'J.', 'K.', 'L.', 'M.', 'N.', 'P.', 'R.', 'S.', 'T.', 'W.'];

/** Taxonomy tree: organisms with genus/species and strains or cell lines. */
export const TAXONOMY: { genus: string; species: string; ncbi: number; strains: string[] }[] = [
  { genus: 'Homo', species: 'sapiens', ncbi: 9606, strains: ['HEK293', 'A431', 'HCT116', 'MCF-7', 'K562', 'HepG2', 'Caco-2'] },
  { genus: 'Mus', species: 'musculus', ncbi: 10090, strains: ['C57BL/6', 'BALB/c', 'CD-1'] },
  { genus: 'Rattus', species: 'norvegicus', ncbi: 10116, strains: ['Sprague-Dawley', 'Wistar', 'Lewis'] },
  { genus: 'Canis', species: 'lupus familiaris', ncbi: 9615, strains: ['Beagle'] },
  { genus: 'Escherichia', species: 'coli', ncbi: 562, strains: ['K-12', 'BL21(DE3)'] },
  { genus: 'Staphylococcus', species: 'aureus', ncbi: 1280, strains: ['ATCC 29213', 'MRSA USA300'] },
];

/** Indication tree (MeSH-like) with the targets whose series lead to it. */
export const INDICATIONS: { path: string[]; mesh: string; genes: string[] }[] = [
  { path: ['Neoplasms', 'Lung Neoplasms', 'Carcinoma, Non-Small-Cell Lung'], mesh: 'D002289', genes: ['EGFR', 'MET', 'BRAF'] },
  { path: ['Neoplasms', 'Breast Neoplasms'], mesh: 'D001943', genes: ['ERBB2', 'ESR1', 'PIK3CA', 'PARP1'] },
  { path: ['Neoplasms', 'Hematologic Neoplasms', 'Leukemia, Myelogenous, Chronic'], mesh: 'D015464', genes: ['ABL1', 'SRC'] },
  { path: ['Neoplasms', 'Hematologic Neoplasms', 'Lymphoma, Mantle-Cell'], mesh: 'D020522', genes: ['BTK', 'BRD4'] },
  { path: ['Neoplasms', 'Skin Neoplasms', 'Melanoma'], mesh: 'D008545', genes: ['BRAF', 'CDK2'] },
  { path: ['Neoplasms', 'Prostatic Neoplasms'], mesh: 'D011471', genes: ['AR', 'HDAC1'] },
  { path: ['Neoplasms', 'Colorectal Neoplasms'], mesh: 'D015179', genes: ['KDR', 'MAPK14'] },
  { path: ['Immune System Diseases', 'Arthritis, Rheumatoid'], mesh: 'D001172', genes: ['JAK2', 'JAK3', 'PTGS2', 'MAPK14'] },
  { path: ['Hematologic Diseases', 'Myeloproliferative Disorders'], mesh: 'D009196', genes: ['JAK2'] },
  { path: ['Mental Disorders', 'Schizophrenia'], mesh: 'D012559', genes: ['DRD2', 'HTR2A'] },
  { path: ['Nervous System Diseases', 'Alzheimer Disease'], mesh: 'D000544', genes: ['ACHE'] },
  { path: ['Respiratory Tract Diseases', 'Asthma'], mesh: 'D001249', genes: ['ADRB2'] },
  { path: ['Metabolic Diseases', 'Diabetes Mellitus, Type 2'], mesh: 'D003924', genes: ['PPARG', 'DPP4'] },
  { path: ['Cardiovascular Diseases', 'Venous Thrombosis'], mesh: 'D020246', genes: ['F10'] },
  { path: ['Musculoskeletal Diseases', 'Osteoarthritis'], mesh: 'D010003', genes: ['PTGS2'] },
];
