import type { TreeKey } from '@kb/contracts/trees';
import { badRequest } from '../../http/errors.ts';

/**
 * Node ids of the trees. They are text and say what they stand for (`c12` is target class 12,
 * `Jy:2004:J. Med. Chem.` the 2004 articles of that journal), so a saved selection keeps its
 * meaning whatever the node table holds, and the search compiler can turn them into SQL without
 * reading it. The refresh (tree-refresh.ts) writes ids in exactly these shapes.
 */
export type ParsedNode =
  | { kind: 'class'; id: number }
  | { kind: 'target'; id: number }
  /** Targets without a classification, optionally of one target type. */
  | { kind: 'unclassified'; targetType: string | null }
  | { kind: 'indication'; id: number }
  | { kind: 'taxon'; id: number }
  | { kind: 'endpoint'; id: number }
  | { kind: 'pathway'; id: number }
  | { kind: 'gene'; pathwayId: number; gene: string }
  /** Phase 0 stands for "phase not reported", status 0 for "status not reported". */
  | { kind: 'phase'; phase: number }
  | { kind: 'phaseStatus'; phase: number; status: number }
  | { kind: 'assayType'; assayType: string }
  /** An empty method stands for "method not reported". */
  | { kind: 'assayMethod'; assayType: string; method: string }
  | { kind: 'source'; source: BibliographySource }
  /** Journal name (J, O) or patent country code (P); empty when not reported. */
  | { kind: 'sourceName'; source: BibliographySource; name: string }
  | { kind: 'sourceYear'; source: BibliographySource; name: string; year: number | null };

type BibliographySource = 'J' | 'P' | 'O';

/** How each tree is called in messages (the names of the search builder). */
export const TREE_NAMES: Record<TreeKey, string> = {
  target: 'Target',
  indication: 'Indication',
  sourceontology: 'Taxonomy',
  activityendpoint: 'Endpoint',
  adme: 'Pharmacokinetics (ADME)',
  toxicity: 'Toxicity',
  pathways: 'Pathways',
  clinicalphase: 'Clinical phase',
  assaymethodname: 'Assay method name',
  bibliography: 'Bibliography',
};

/** The shapes of node ids per tree, quoted in 400 answers so a caller can fix the id. */
const ID_SHAPES: Record<TreeKey, string> = {
  target: 'c<class id>, t<target id>, u or u:<target type>',
  indication: 'i<indication id>',
  sourceontology: 's<taxonomy id>',
  activityendpoint: 'e<endpoint id>',
  adme: 'e<endpoint id>',
  toxicity: 'e<endpoint id>',
  pathways: 'p<pathway id> or p<pathway id>:<gene symbol>',
  clinicalphase: 'ph<phase id> or ph<phase id>:st<status id>',
  assaymethodname: 't:<assay type> or m:<assay type>:<method name>',
  bibliography: 'J, P, O, Jn:<journal>, Pn:<country code>, On:<name>, Jy:<year>:<journal> ...',
};

/** Ids below 2^53 and short enough for any id column; anything else is not an id of ours. */
const INT = '(\\d{1,15})';
const re = (source: string) => new RegExp(`^${source}$`, 's');

type Rule = [RegExp, (m: RegExpExecArray) => ParsedNode];
const int = (s: string | undefined) => Number(s);
const text = (s: string | undefined) => s ?? '';
const source = (s: string | undefined) => s as BibliographySource;
const endpointRules: Rule[] = [[re(`e${INT}`), (m) => ({ kind: 'endpoint', id: int(m[1]) })]];

/** The id shapes of each tree, tried in order. */
const RULES: Record<TreeKey, Rule[]> = {
  target: [
    [re(`c${INT}`), (m) => ({ kind: 'class', id: int(m[1]) })],
    [re(`t${INT}`), (m) => ({ kind: 'target', id: int(m[1]) })],
    [re('u(?::(.+))?'), (m) => ({ kind: 'unclassified', targetType: m[1] ?? null })],
  ],
  indication: [[re(`i${INT}`), (m) => ({ kind: 'indication', id: int(m[1]) })]],
  sourceontology: [[re(`s${INT}`), (m) => ({ kind: 'taxon', id: int(m[1]) })]],
  activityendpoint: endpointRules,
  adme: endpointRules,
  toxicity: endpointRules,
  pathways: [
    [re(`p${INT}`), (m) => ({ kind: 'pathway', id: int(m[1]) })],
    [re(`p${INT}:(.+)`), (m) => ({ kind: 'gene', pathwayId: int(m[1]), gene: text(m[2]) })],
  ],
  clinicalphase: [
    [re(`ph${INT}`), (m) => ({ kind: 'phase', phase: int(m[1]) })],
    [re(`ph${INT}:st${INT}`), (m) => ({ kind: 'phaseStatus', phase: int(m[1]), status: int(m[2]) })],
  ],
  assaymethodname: [
    [re('t:([^:]+)'), (m) => ({ kind: 'assayType', assayType: text(m[1]) })],
    [re('m:([^:]+):(.*)'), (m) => ({ kind: 'assayMethod', assayType: text(m[1]), method: text(m[2]) })],
  ],
  bibliography: [
    [re('([JPO])'), (m) => ({ kind: 'source', source: source(m[1]) })],
    [re('([JPO])n:(.*)'), (m) => ({ kind: 'sourceName', source: source(m[1]), name: text(m[2]) })],
    [
      re('([JPO])y:(\\d{0,4}):(.*)'),
      (m) => ({ kind: 'sourceYear', source: source(m[1]), year: m[2] ? int(m[2]) : null, name: text(m[3]) }),
    ],
  ],
};

function parse(tree: TreeKey, id: string): ParsedNode | null {
  for (const [pattern, build] of RULES[tree]) {
    const m = pattern.exec(id);
    if (m) return build(m);
  }
  return null;
}

/** Decodes a node id of a tree; throws HttpError 400 naming the expected shapes when it is not one. */
export function parseNodeId(tree: TreeKey, id: string): ParsedNode {
  const parsed = parse(tree, id);
  if (!parsed) {
    const shown = id.length > 60 ? `${id.slice(0, 60)}…` : id;
    throw badRequest(`"${shown}" is not a node of the ${TREE_NAMES[tree]} tree. Its node ids look like ${ID_SHAPES[tree]}.`);
  }
  return parsed;
}
