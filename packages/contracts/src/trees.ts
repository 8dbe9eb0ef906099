import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { SEARCH_ROLES } from './roles.ts';

/**
 * Tree views (spec §2 "Tree views", §3 "Tree nodes": label, ids, count, children built from
 * parentid). Trees load lazily: a call answers the children of one node (`root` for the top).
 * `count` is the number of distinct structures with data under the node (precomputed).
 */
export const TREE_KEYS = [
  'target',
  'indication',
  'sourceontology',
  'activityendpoint',
  'adme',
  'toxicity',
  'pathways',
  'clinicalphase',
  'assaymethodname',
  'bibliography',
] as const;
export type TreeKey = (typeof TREE_KEYS)[number];

/** Tree key per tree view as sent in a tree row (spec §4: Taxonomy is sent as SourceOntologyTreeView). */
export const TREE_KEY_BY_VIEW = {
  Target: 'target',
  Indication: 'indication',
  Pharmacokinetics: 'adme',
  Toxicity: 'toxicity',
  SourceOntologyTreeView: 'sourceontology',
  Pathways: 'pathways',
  ClinicalPhase: 'clinicalphase',
  AssayMethodName: 'assaymethodname',
  Bibliography: 'bibliography',
  Endpoint: 'activityendpoint',
} as const satisfies Record<string, TreeKey>;

export interface TreeNode {
  /** Node id, unique within its tree (string: some trees key nodes by text, e.g. J/P/O). */
  id: string;
  parentid: string | null;
  label: string;
  /** The ids a selection of this node sends (itself; descendants are implied). */
  ids: string[];
  count: number;
  hasChildren: boolean;
  children?: TreeNode[];
}
export const TreeNodeSchema: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    parentid: z.string().nullable(),
    label: z.string(),
    ids: z.array(z.string()),
    count: z.number().int(),
    hasChildren: z.boolean(),
    children: z.array(TreeNodeSchema).optional(),
  }),
);
export const TreeChildrenResponseSchema = z.object({
  tree: z.enum(TREE_KEYS),
  parentid: z.string().nullable(),
  nodes: z.array(TreeNodeSchema),
});
export type TreeChildrenResponse = z.infer<typeof TreeChildrenResponseSchema>;

const TreeIdParams = z.object({
  tree: z.enum([
    'target',
    'indication',
    'sourceontology',
    'activityendpoint',
    'pathways',
    'clinicalphase',
    'assaymethodname',
    'bibliography',
  ]),
  id: z.string().min(1).max(300),
});
const IdParams = z.object({ id: z.string().min(1).max(300) });

/** Search inside a tree: matching nodes with the path of labels from the root, so the client can expand to them. */
export const TreeSearchQuerySchema = z.object({
  term: z.string().trim().min(1).max(200),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const TreeSearchResponseSchema = z.object({
  items: z.array(z.object({ node: TreeNodeSchema, path: z.array(z.object({ id: z.string(), label: z.string() })) })),
});
export const TreeNameListRequestSchema = z.object({ names: z.array(z.string().trim().min(1).max(500)).min(1).max(10_000) });
export const TreeNameListResponseSchema = z.object({
  found: z.array(z.object({ name: z.string(), node: TreeNodeSchema })),
  notFound: z.array(z.string()),
});

export const treeEndpoints = {
  children: defineEndpoint({
    method: 'GET',
    path: '/api/security/treeview/:tree/:id',
    access: SEARCH_ROLES,
    summary: 'Children of one tree node (`root` for the top level) with counts.',
    params: TreeIdParams,
    response: TreeChildrenResponseSchema,
  }),
  adme: defineEndpoint({
    method: 'GET',
    path: '/api/guidedsearch/pharmacokinetics/treeview/adme/:id',
    access: SEARCH_ROLES,
    summary: 'Children of one node of the pharmacokinetics (ADME) endpoint tree.',
    params: IdParams,
    response: TreeChildrenResponseSchema,
  }),
  toxicity: defineEndpoint({
    method: 'GET',
    path: '/api/guidedsearch/toxicity/treeview/:id',
    access: SEARCH_ROLES,
    summary: 'Children of one node of the toxicity endpoint tree.',
    params: IdParams,
    response: TreeChildrenResponseSchema,
  }),
  search: defineEndpoint({
    method: 'GET',
    path: '/api/security/treeview/:tree/search',
    access: SEARCH_ROLES,
    summary: 'Nodes of a tree whose label contains the term, with their path from the root.',
    params: z.object({ tree: z.enum(TREE_KEYS) }),
    query: TreeSearchQuerySchema,
    response: TreeSearchResponseSchema,
  }),
  byNameList: defineEndpoint({
    method: 'POST',
    path: '/api/security/treeview/:tree/bynamelist',
    access: SEARCH_ROLES,
    summary: 'Finds tree nodes by a list of names (uploaded or pasted), case-insensitive.',
    params: z.object({ tree: z.enum(TREE_KEYS) }),
    body: TreeNameListRequestSchema,
    response: TreeNameListResponseSchema,
  }),
} as const;
