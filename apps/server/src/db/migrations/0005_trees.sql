-- Tree views (spec §2 "Tree views", §3 "Tree nodes"): a curated pathway vocabulary, and the
-- materialised nodes of the ten trees with their structure counts (modules/trees/tree-refresh.ts).

-- Pathways: a small curated vocabulary (categories > pathways) keyed by official human gene symbols,
-- so it applies to demo targets and ChEMBL-imported targets alike. Memberships are a hand-checked
-- subset of each pathway's genes (after KEGG where `source_id` is a KEGG map id; the groupings
-- without one are curated from the literature), not a full copy of any pathway database.
CREATE TABLE pathways (
  pathway_id   serial PRIMARY KEY,
  parent_id    integer REFERENCES pathways(pathway_id),
  name         text NOT NULL,
  source_id    text,              -- KEGG human map id (hsa04010 ...) where the pathway follows KEGG
  description  text
);
CREATE UNIQUE INDEX pathways_path_uq ON pathways (coalesce(parent_id, 0), name);
CREATE INDEX pathways_parent_idx ON pathways (parent_id);

CREATE TABLE pathway_genes (
  pathway_id   integer NOT NULL REFERENCES pathways(pathway_id) ON DELETE CASCADE,
  gene_symbol  text NOT NULL CHECK (gene_symbol = upper(gene_symbol)),  -- HGNC symbol
  PRIMARY KEY (pathway_id, gene_symbol)
);
CREATE INDEX pathway_genes_gene_idx ON pathway_genes (gene_symbol);

INSERT INTO pathways (name, description) VALUES
  ('Signal transduction', 'Receptor tyrosine kinase, cytokine and growth-factor signalling cascades'),
  ('Immune system', 'Signalling of immune cells'),
  ('Cell growth and death', 'Cell-cycle control and programmed cell death'),
  ('Protein folding and degradation', 'Ubiquitin ligases and the proteasome'),
  ('Nervous system', 'Neurotransmitter receptors and synapses'),
  ('Cardiovascular system and hemostasis', 'Cardiac contraction, repolarisation and blood coagulation'),
  ('Endocrine and nuclear receptor signaling', 'Hormone and nuclear-receptor signalling'),
  ('DNA repair and chromatin', 'DNA repair and epigenetic regulation of chromatin'),
  ('Metabolism', 'Metabolism of drugs and lipid mediators'),
  ('Cancer', 'Disease pathways of cancers');

INSERT INTO pathways (parent_id, name, source_id)
SELECT c.pathway_id, v.name, v.source_id
FROM (VALUES
  ('Signal transduction', 'MAPK signaling', 'hsa04010'),
  ('Signal transduction', 'ErbB signaling', 'hsa04012'),
  ('Signal transduction', 'PI3K-Akt signaling', 'hsa04151'),
  ('Signal transduction', 'JAK-STAT signaling', 'hsa04630'),
  ('Signal transduction', 'VEGF signaling', 'hsa04370'),
  ('Immune system', 'B cell receptor signaling', 'hsa04662'),
  ('Cell growth and death', 'Cell cycle', 'hsa04110'),
  ('Cell growth and death', 'Apoptosis', 'hsa04210'),
  ('Protein folding and degradation', 'Ubiquitin-proteasome (targeted degradation)', NULL),
  ('Nervous system', 'Neuroactive ligand-receptor interaction', 'hsa04080'),
  ('Nervous system', 'Dopaminergic synapse', 'hsa04728'),
  ('Nervous system', 'Serotonergic synapse', 'hsa04726'),
  ('Nervous system', 'Cholinergic synapse', 'hsa04725'),
  ('Cardiovascular system and hemostasis', 'Adrenergic signaling in cardiomyocytes', 'hsa04261'),
  ('Cardiovascular system and hemostasis', 'Cardiac repolarization', NULL),
  ('Cardiovascular system and hemostasis', 'Complement and coagulation cascades', 'hsa04610'),
  ('Endocrine and nuclear receptor signaling', 'Estrogen signaling', 'hsa04915'),
  ('Endocrine and nuclear receptor signaling', 'Androgen receptor signaling', NULL),
  ('Endocrine and nuclear receptor signaling', 'PPAR signaling', 'hsa03320'),
  ('Endocrine and nuclear receptor signaling', 'Incretin signaling (GLP-1/GIP)', NULL),
  ('DNA repair and chromatin', 'Base excision repair', 'hsa03410'),
  ('DNA repair and chromatin', 'Chromatin regulation (epigenetic readers and erasers)', NULL),
  ('Metabolism', 'Drug metabolism - cytochrome P450', 'hsa00982'),
  ('Metabolism', 'Arachidonic acid metabolism', 'hsa00590'),
  ('Cancer', 'Chronic myeloid leukemia', 'hsa05220'),
  ('Cancer', 'Non-small cell lung cancer', 'hsa05223')
) AS v (category, name, source_id)
JOIN pathways c ON c.name = v.category AND c.parent_id IS NULL;

INSERT INTO pathway_genes (pathway_id, gene_symbol)
SELECT p.pathway_id, g.gene
FROM (VALUES
  ('MAPK signaling', 'EGFR KRAS HRAS NRAS BRAF RAF1 ARAF MAP2K1 MAP2K2 MAPK1 MAPK3 MAPK8 MAPK14'),
  ('ErbB signaling', 'EGFR ERBB2 ERBB3 ERBB4 SRC ABL1 CBL GRB2 PLCG1 KRAS BRAF RAF1 MAP2K1 MAPK1 MAPK3 PIK3CA AKT1 MTOR'),
  ('PI3K-Akt signaling', 'EGFR KDR MET IGF1R INSR PIK3CA PIK3CB PIK3CD PIK3R1 PDPK1 PTEN AKT1 AKT2 AKT3 MTOR CDK2 CDK4 CDK6 CCND1'),
  ('JAK-STAT signaling', 'JAK1 JAK2 JAK3 TYK2 STAT1 STAT3 STAT5A STAT5B SOCS1 SOCS3 IL6R IL2RG EPOR'),
  ('VEGF signaling', 'KDR SRC PTGS2 MAPK14 PIK3CA AKT1 MAPK1 MAPK3 PLCG1 NOS3'),
  ('B cell receptor signaling', 'BTK SYK LYN BLNK PLCG2 CD79A CD79B PIK3CD'),
  ('Cell cycle', 'CDK1 CDK2 CDK4 CDK6 CCNA2 CCNB1 CCND1 CCNE1 RB1 E2F1 TP53 CDKN1A CDKN2A WEE1 CHEK1 CHEK2 PLK1 MDM2'),
  ('Apoptosis', 'BCL2 BCL2L1 MCL1 BAX BAK1 CASP3 CASP8 CASP9 XIAP BIRC2 TP53 PARP1'),
  ('Ubiquitin-proteasome (targeted degradation)', 'CRBN DDB1 CUL4A CUL4B RBX1 VHL ELOB ELOC CUL2 MDM2 BIRC2 XIAP KEAP1 DCAF15 DCAF16 PSMB5'),
  ('Neuroactive ligand-receptor interaction', 'DRD1 DRD2 DRD3 HTR1A HTR2A HTR2C ADRA1A ADRB1 ADRB2 CHRM1 CHRM3 OPRM1 CNR1 HRH1 GABRA1'),
  ('Dopaminergic synapse', 'DRD1 DRD2 DRD3 TH SLC6A3 COMT MAOA MAOB'),
  ('Serotonergic synapse', 'HTR1A HTR2A HTR2C HTR3A SLC6A4 TPH1 TPH2 MAOA'),
  ('Cholinergic synapse', 'ACHE CHAT CHRM1 CHRM3 CHRNA7 SLC5A7 SLC18A3'),
  ('Adrenergic signaling in cardiomyocytes', 'ADRB1 ADRB2 ADRA1A CACNA1C RYR2 ATP2A2 PLN'),
  ('Cardiac repolarization', 'KCNH2 KCNQ1 KCNE1 KCNE2 KCNJ2'),
  ('Complement and coagulation cascades', 'F2 F3 F7 F9 F10 F11 F12 SERPINC1 PLG PLAU'),
  ('Estrogen signaling', 'ESR1 ESR2 GPER1 NCOA1 NCOA3 HSP90AA1'),
  ('Androgen receptor signaling', 'AR CYP17A1 HSD17B3 SRD5A1 SRD5A2 NCOA2'),
  ('PPAR signaling', 'PPARA PPARD PPARG RXRA FABP4 CD36 LPL'),
  ('Incretin signaling (GLP-1/GIP)', 'GCG GIP GLP1R GIPR DPP4'),
  ('Base excision repair', 'PARP1 PARP2 APEX1 XRCC1 POLB LIG3 OGG1 UNG'),
  ('Chromatin regulation (epigenetic readers and erasers)', 'HDAC1 HDAC2 HDAC3 HDAC6 HDAC8 SIRT1 BRD2 BRD3 BRD4 BRDT EP300 CREBBP EZH2 DOT1L KDM1A DNMT1'),
  ('Drug metabolism - cytochrome P450', 'CYP3A4 CYP3A5 CYP2D6 CYP2C9 CYP2C19 CYP1A2 CYP2E1 UGT1A1 MAOA FMO3'),
  ('Arachidonic acid metabolism', 'PTGS1 PTGS2 ALOX5 ALOX12 PTGES TBXAS1 PTGIS LTA4H'),
  ('Chronic myeloid leukemia', 'ABL1 BCR STAT5A STAT5B GRB2 KRAS'),
  ('Non-small cell lung cancer', 'EGFR ERBB2 ALK KRAS BRAF PIK3CA')
) AS v (pathway, genes)
CROSS JOIN LATERAL unnest(string_to_array(v.genes, ' ')) AS g (gene)
JOIN pathways p ON p.name = v.pathway AND p.parent_id IS NOT NULL;

-- The nodes of every tree with their counts, rebuilt from the knowledge base by refreshTreeCounts.
-- Node ids are text and self-describing (e.g. 'c12' target class, 'Jy:2004:J. Med. Chem.'), so a
-- saved selection keeps its meaning across refreshes; the search compiler decodes them itself.
CREATE TABLE tree_nodes (
  tree             text NOT NULL,
  node_id          text NOT NULL,
  parent_id        text,                         -- NULL for top-level nodes
  label            text NOT NULL,
  codes            text[] NOT NULL DEFAULT '{}', -- other names a by-name list may use: gene symbol, MeSH id ...
  structure_count  integer NOT NULL DEFAULT 0,   -- distinct structures with data under the node (descendants included)
  PRIMARY KEY (tree, node_id)
);
CREATE INDEX tree_nodes_children_idx ON tree_nodes (tree, parent_id);

-- One row: what the knowledge base looked like at the last refresh (staleness check) and its cost.
CREATE TABLE tree_refresh_state (
  singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  fingerprint   text NOT NULL,
  refreshed_at  timestamptz NOT NULL DEFAULT now(),
  duration_ms   integer NOT NULL
);

-- migrate:down
DROP TABLE IF EXISTS tree_refresh_state, tree_nodes, pathway_genes, pathways;
