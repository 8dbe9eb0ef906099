import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TREE_KEYS } from '@kb/contracts/trees';
import type { TreeChildrenResponse, TreeKey, TreeNode } from '@kb/contracts/trees';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { HttpError } from '../../http/errors.ts';
import { treeSelectionMatch } from './tree-match.ts';
import { refreshTreeCounts } from './tree-refresh.ts';
import { TreeService } from './tree-service.ts';

const enc = encodeURIComponent;

function childrenUrl(tree: TreeKey, id: string): string {
  if (tree === 'adme') return `/api/guidedsearch/pharmacokinetics/treeview/adme/${enc(id)}`;
  if (tree === 'toxicity') return `/api/guidedsearch/toxicity/treeview/${enc(id)}`;
  return `/api/security/treeview/${tree}/${enc(id)}`;
}

/** Every id below `root` of a parent_id hierarchy, the root included (computed here, in JS). */
function descendants(rows: { id: number; parent: number | null }[], root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const r of rows) if (r.parent === out[i]) out.push(r.id);
  return out;
}

/**
 * The knowledge base read with plain queries, and expected node counts computed from it without
 * the module's SQL: JS set logic over the vocabulary rows, then simple counts of distinct structures.
 */
class Expected {
  constructor(private readonly t: TestApp) {}
  private get db() {
    return this.t.database.db;
  }

  private async strCount(where: ReturnType<typeof sql<boolean>>): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(distinct str_id)::int as n from activities where ${where}`.execute(this.db);
    return rows[0]?.n ?? -1;
  }

  async hierarchy(table: 'target_classes' | 'indications' | 'taxonomy' | 'endpoints' | 'pathways', id: string) {
    const { rows } = await sql<{
      id: number;
      parent: number | null;
    }>`select ${sql.ref(id)} as id, parent_id as parent from ${sql.table(table)}`.execute(this.db);
    return rows;
  }

  /** Expected count of one node, decoded from its id. */
  async count(tree: TreeKey, id: string): Promise<number> {
    const db = this.db;
    const num = (s: string) => Number(s.replace(/^\D+/, ''));
    switch (tree) {
      case 'target': {
        if (id.startsWith('t')) return this.strCount(sql<boolean>`target_id = ${num(id)}`);
        if (id.startsWith('u')) {
          const type = id.startsWith('u:') ? id.slice(2) : null;
          const targets = (await db.selectFrom('targets').select(['target_id', 'class_id', 'target_type']).execute()).filter(
            (r) => r.class_id === null && (type === null || r.target_type === type),
          );
          return this.strCount(sql<boolean>`target_id = any(${targets.map((r) => r.target_id)}::bigint[])`);
        }
        const classes = descendants(await this.hierarchy('target_classes', 'class_id'), num(id));
        const targets = await db.selectFrom('targets').select('target_id').where('class_id', 'in', classes).execute();
        return this.strCount(sql<boolean>`target_id = any(${targets.map((r) => r.target_id)}::bigint[])`);
      }
      case 'indication': {
        const ids = descendants(await this.hierarchy('indications', 'indication_id'), num(id));
        const links = await db.selectFrom('clinical_compound_indications').select(['clinical_compound_id', 'indication_id']).execute();
        const compounds = new Set(links.filter((l) => ids.includes(l.indication_id)).map((l) => l.clinical_compound_id));
        const cc = await db.selectFrom('clinical_compounds').select(['clinical_compound_id', 'str_id']).execute();
        return new Set(cc.filter((c) => compounds.has(c.clinical_compound_id) && c.str_id !== null).map((c) => c.str_id)).size;
      }
      case 'sourceontology': {
        const ids = descendants(await this.hierarchy('taxonomy', 'taxonomy_id'), num(id));
        const assays = await db.selectFrom('assays').select('assay_id').where('taxonomy_id', 'in', ids).execute();
        return this.strCount(sql<boolean>`assay_id = any(${assays.map((a) => a.assay_id)}::bigint[])`);
      }
      case 'activityendpoint':
      case 'adme':
      case 'toxicity': {
        const ids = descendants(await this.hierarchy('endpoints', 'endpoint_id'), num(id));
        const types = await db.selectFrom('activity_types').select('name').where('endpoint_id', 'in', ids).execute();
        const assays = await db
          .selectFrom('assays')
          .select('assay_id')
          .where((eb) => eb.or([eb('pk_endpoint_id', 'in', ids), eb('tox_endpoint_id', 'in', ids)]))
          .execute();
        return this.strCount(sql<boolean>`endpoint_id = any(${ids}::int[])
          or (endpoint_id is null and std_activity_type = any(${types.map((r) => r.name)}::text[]))
          or assay_id = any(${assays.map((a) => a.assay_id)}::bigint[])`);
      }
      case 'pathways': {
        const [, pathway, gene] = /^p(\d+)(?::(.+))?$/.exec(id) ?? [];
        let genes: string[] = gene ? [gene] : [];
        if (!gene) {
          const ids = descendants(await this.hierarchy('pathways', 'pathway_id'), Number(pathway));
          genes = (await db.selectFrom('pathway_genes').select('gene_symbol').where('pathway_id', 'in', ids).execute()).map(
            (r) => r.gene_symbol,
          );
        }
        const targets = (await db.selectFrom('targets').select(['target_id', 'gene_symbol']).execute()).filter(
          (r) => r.gene_symbol !== null && genes.includes(r.gene_symbol.toUpperCase()),
        );
        return this.strCount(sql<boolean>`target_id = any(${targets.map((r) => r.target_id)}::bigint[])`);
      }
      case 'clinicalphase': {
        const [, phase, status] = /^ph(\d+)(?::st(\d+))?$/.exec(id) ?? [];
        const cc = await db.selectFrom('clinical_compounds').select(['highest_phase_id', 'status_id', 'str_id']).execute();
        return new Set(
          cc
            .filter(
              (c) =>
                (c.highest_phase_id ?? 0) === Number(phase) &&
                (status === undefined || (c.status_id ?? 0) === Number(status)) &&
                c.str_id !== null,
            )
            .map((c) => c.str_id),
        ).size;
      }
      case 'assaymethodname': {
        const [, type, method] = /^[tm]:([^:]+)(?::(.*))?$/s.exec(id) ?? [];
        const assays = (await db.selectFrom('assays').select(['assay_id', 'assay_type', 'assay_method_name']).execute()).filter(
          (a) => a.assay_type === type && (method === undefined || (a.assay_method_name ?? '') === method),
        );
        return this.strCount(sql<boolean>`assay_id = any(${assays.map((a) => a.assay_id)}::bigint[])`);
      }
      case 'bibliography': {
        const [, source, nameOfLevel2, docYear, nameOfLevel3] = /^([JPO])(?:n:(.*)|y:(\d*):(.*))?$/s.exec(id) ?? [];
        const docName = nameOfLevel2 ?? nameOfLevel3;
        const docs = (
          await db.selectFrom('documents').select(['ref_id', 'ref_type', 'journal_patent_name', 'country_code', 'year']).execute()
        ).filter((d) => {
          const s = d.ref_type === 'journal' ? 'J' : d.ref_type === 'patent' ? 'P' : 'O';
          const n = (s === 'P' ? d.country_code : d.journal_patent_name) ?? '';
          return s === source && (docName === undefined || n === docName) && (docYear === undefined || String(d.year ?? '') === docYear);
        });
        return this.strCount(sql<boolean>`ref_id = any(${docs.map((d) => d.ref_id)}::bigint[])`);
      }
    }
  }
}

describe.each(DATABASES)('tree views on %s', (kind) => {
  let t: TestApp;
  let login: LoginResult;
  let expected: Expected;
  const walked = new Map<TreeKey, TreeNode[]>();

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 2 });
    login = await t.login(demoEmailForRole('FULL_USER'));
    expected = new Expected(t);
  }, 240_000);
  afterAll(() => t?.close());

  async function children(tree: TreeKey, id: string): Promise<TreeChildrenResponse> {
    const res = await t.call({ method: 'GET', url: childrenUrl(tree, id), headers: authHeaders(login) });
    expect(res.statusCode, res.body).toBe(200);
    return res.data as unknown as TreeChildrenResponse;
  }

  /** Every node of a tree, loaded lazily level by level as the client does (leaves asked too: they answer no children). */
  async function walk(tree: TreeKey): Promise<TreeNode[]> {
    const known = walked.get(tree);
    if (known) return known;
    const all: TreeNode[] = [];
    const queue = ['root'];
    while (queue.length > 0) {
      const id = queue.shift() as string;
      const answer = await children(tree, id);
      expect(answer.tree).toBe(tree);
      expect(answer.parentid).toBe(id === 'root' ? null : id);
      const parent = all.find((n) => n.id === id);
      if (parent) expect(parent.hasChildren, `${tree} ${id} hasChildren`).toBe(answer.nodes.length > 0);
      const labels = answer.nodes.map((n) => n.label.toLowerCase());
      expect(labels, `${tree} ${id} children sorted by label`).toEqual([...labels].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      for (const node of answer.nodes) {
        expect(node.parentid).toBe(id === 'root' ? null : id);
        expect(node.ids).toEqual([node.id]);
        all.push(node);
        queue.push(node.id);
      }
    }
    walked.set(tree, all);
    return all;
  }

  it('answers the top level of every tree, with counts of structures', async () => {
    for (const tree of TREE_KEYS) {
      const answer = await children(tree, 'root');
      expect(answer.nodes.length, tree).toBeGreaterThan(0);
      expect(
        answer.nodes.some((n) => n.count > 0),
        `${tree} has data`,
      ).toBe(true);
    }
    const targetTop = await children('target', 'root');
    const topClasses = await t.database.db.selectFrom('target_classes').select('name').where('parent_id', 'is', null).execute();
    expect(targetTop.nodes.map((n) => n.label).sort()).toEqual(topClasses.map((c) => c.name).sort());
    const bibliography = await children('bibliography', 'root');
    expect(bibliography.nodes.map((n) => n.id)).toEqual(['J', 'O', 'P']);
    const assayTypes = await children('assaymethodname', 'root');
    expect(assayTypes.nodes.map((n) => n.label)).toEqual(['ADME', 'Binding', 'Functional', 'Physicochemical', 'Toxicity', 'Unassigned']);
  });

  it('loads children lazily: the target tree holds every class and every target, with targets under their class', async () => {
    const nodes = await walk('target');
    const classes = await t.database.db.selectFrom('target_classes').select(['class_id', 'parent_id']).execute();
    const targets = await t.database.db.selectFrom('targets').select(['target_id', 'class_id', 'gene_symbol']).execute();
    expect(nodes).toHaveLength(classes.length + targets.length);
    for (const target of targets) {
      const node = nodes.find((n) => n.id === `t${target.target_id}`);
      expect(node?.parentid).toBe(`c${target.class_id}`);
      expect(node?.label).toContain(`(${target.gene_symbol})`);
      expect(node?.hasChildren).toBe(false);
    }
  }, 120_000);

  it('lists the other trees from their vocabularies', async () => {
    const db = t.database.db;
    const endpointCounts = await db
      .selectFrom('endpoints')
      .select(['tree', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('tree')
      .execute();
    const endpointsOf = (tree: string) => Number(endpointCounts.find((e) => e.tree === tree)?.n);
    expect((await walk('activityendpoint')).length).toBe(endpointsOf('activity'));
    expect((await walk('adme')).length).toBe(endpointsOf('pk'));
    expect((await walk('toxicity')).length).toBe(endpointsOf('toxicity'));
    expect((await walk('indication')).length).toBe((await db.selectFrom('indications').select('indication_id').execute()).length);
    expect((await walk('sourceontology')).length).toBe((await db.selectFrom('taxonomy').select('taxonomy_id').execute()).length);

    const pathways = await walk('pathways');
    const pathwayRows = await db.selectFrom('pathways').select(['pathway_id', 'name']).execute();
    for (const p of pathwayRows) expect(pathways.find((n) => n.id === `p${p.pathway_id}`)?.label).toBe(p.name);
    // Every demo target's gene sits in at least one pathway (the curated vocabulary covers them).
    const genes = (await db.selectFrom('targets').select('gene_symbol').execute()).map((r) => r.gene_symbol);
    for (const gene of genes)
      expect(
        pathways.some((n) => n.id.endsWith(`:${gene}`)),
        `${gene} in a pathway`,
      ).toBe(true);

    const phases = await walk('clinicalphase');
    for (const p of await db.selectFrom('clinical_phases').select(['phase_id', 'name']).execute()) {
      expect(phases.find((n) => n.id === `ph${p.phase_id}`)?.label).toBe(p.name);
    }
    const bibliography = await walk('bibliography');
    for (const d of await db.selectFrom('documents').select(['ref_type', 'journal_patent_name', 'country_code', 'year']).execute()) {
      const id = d.ref_type === 'patent' ? `Py:${d.year}:${d.country_code}` : `Jy:${d.year}:${d.journal_patent_name}`;
      expect(
        bibliography.some((n) => n.id === id),
        id,
      ).toBe(true);
    }
    const methods = await walk('assaymethodname');
    const methodRows = await db.selectFrom('assays').select(['assay_type', 'assay_method_name']).distinct().execute();
    for (const m of methodRows) expect(methods.some((n) => n.id === `m:${m.assay_type}:${m.assay_method_name ?? ''}`)).toBe(true);
  }, 180_000);

  it('counts distinct structures under every node of every tree, descendants included', async () => {
    for (const tree of TREE_KEYS) {
      const nodes = await walk(tree);
      for (const node of nodes) {
        expect(node.count, `${tree} ${node.id} ${node.label}`).toBe(await expected.count(tree, node.id));
        const parent = nodes.find((n) => n.id === node.parentid);
        if (parent) expect(parent.count).toBeGreaterThanOrEqual(node.count);
      }
      expect(nodes.filter((n) => n.count > 0).length, `${tree} has nodes with data`).toBeGreaterThan(1);
    }
    // Distinct structures, not a sum: a series measured on two kinase targets counts once under Kinase.
    const targetNodes = await walk('target');
    const kinase = targetNodes.find((n) => n.label === 'Kinase') as TreeNode;
    const kinaseChildren = targetNodes.filter((n) => n.parentid === kinase.id);
    expect(kinase.count).toBeLessThan(kinaseChildren.reduce((sum, n) => sum + n.count, 0));
  }, 300_000);

  it('finds nodes whose label contains a term, case-insensitively, with their path from the root', async () => {
    const res = await t.call({ method: 'GET', url: '/api/security/treeview/target/search?term=KINASE', headers: authHeaders(login) });
    expect(res.statusCode).toBe(200);
    const items = (res.data as { items: { node: TreeNode; path: { id: string; label: string }[] }[] }).items;
    const all = await walk('target');
    expect(items.map((i) => i.node.id).sort()).toEqual(
      all
        .filter((n) => n.label.toLowerCase().includes('kinase'))
        .map((n) => n.id)
        .sort(),
    );
    expect(items[0]?.node.label).toBe('Kinase'); // exact match first
    for (const { node, path } of items) {
      // Expanding the path level by level reaches the node.
      let parent = 'root';
      for (const step of [...path, { id: node.id, label: node.label }]) {
        const level = await children('target', parent);
        expect(
          level.nodes.map((n) => n.id),
          `${step.label} under ${parent}`,
        ).toContain(step.id);
        parent = step.id;
      }
    }
    const limited = await t.call({
      method: 'GET',
      url: '/api/security/treeview/target/search?term=kinase&limit=2',
      headers: authHeaders(login),
    });
    expect((limited.data.items as unknown[]).length).toBe(2);
  });

  it('takes LIKE wildcards in a search term literally', async () => {
    const search = async (tree: TreeKey, term: string) => {
      const res = await t.call({
        method: 'GET',
        url: `/api/security/treeview/${tree}/search?term=${enc(term)}`,
        headers: authHeaders(login),
      });
      expect(res.statusCode).toBe(200);
      return (res.data.items as { node: TreeNode }[]).map((i) => i.node.label);
    };
    expect(await search('clinicalphase', 'phase i')).toEqual(expect.arrayContaining(['Phase I', 'Phase II', 'Phase III']));
    expect(await search('clinicalphase', 'Phase_I')).toEqual([]);
    expect(await search('target', '%')).toEqual([]);
    expect(await search('target', '\\')).toEqual([]);
    const endpoints = await search('activityendpoint', 'inhibition');
    expect(endpoints[0]).toBe('Inhibition');
    expect(endpoints).toContain('Percent inhibition');
  });

  it('finds nodes by a list of names: labels, gene symbols, UniProt and MeSH ids; reports the rest', async () => {
    const db = t.database.db;
    const post = async (tree: TreeKey, names: string[]) => {
      const res = await t.call({
        method: 'POST',
        url: `/api/security/treeview/${tree}/bynamelist`,
        headers: authHeaders(login),
        payload: { names },
      });
      expect(res.statusCode).toBe(200);
      return res.data as { found: { name: string; node: TreeNode }[]; notFound: string[] };
    };
    const egfr = await db.selectFrom('targets').select(['target_id', 'name']).where('gene_symbol', '=', 'EGFR').executeTakeFirstOrThrow();
    const drd2 = await db.selectFrom('targets').select('target_id').where('gene_symbol', '=', 'DRD2').executeTakeFirstOrThrow();
    const jak2 = await db.selectFrom('targets').select('target_id').where('uniprot_id', '=', 'O60674').executeTakeFirstOrThrow();
    const targets = await post('target', ['egfr', 'dopamine D2 RECEPTOR', 'O60674', 'Kinase', 'no such target']);
    expect(targets.found.map((f) => [f.name, f.node.id])).toEqual([
      ['egfr', `t${egfr.target_id}`],
      ['dopamine D2 RECEPTOR', `t${drd2.target_id}`],
      ['O60674', `t${jak2.target_id}`],
      ['Kinase', (await walk('target')).find((n) => n.label === 'Kinase')?.id],
    ]);
    expect(targets.notFound).toEqual(['no such target']);

    const breast = await db.selectFrom('indications').select('indication_id').where('mesh_id', '=', 'D001943').executeTakeFirstOrThrow();
    const indications = await post('indication', ['D001943', 'neoplasms', 'D999999']);
    expect(indications.found.map((f) => f.node.id)).toEqual([`i${breast.indication_id}`, expect.stringMatching(/^i\d+$/)]);
    expect(indications.found[1]?.node.label).toBe('Neoplasms');
    expect(indications.notFound).toEqual(['D999999']);

    const pathways = await post('pathways', ['hsa04010', 'PARP1']);
    expect(pathways.found[0]?.node.label).toBe('MAPK signaling');
    // PARP1 is a member of two pathways: both gene leaves are found.
    expect(pathways.found.filter((f) => f.name === 'PARP1').map((f) => f.node.parentid).length).toBe(2);

    const bibliography = await post('bibliography', ['J. Med. Chem.', 'ep', 'P']);
    expect(bibliography.found.map((f) => f.node.id)).toEqual(['Jn:J. Med. Chem.', 'Pn:EP', 'P']);
  });

  it('answers 404 for an unknown node and 400 for a malformed id or tree', async () => {
    const get = (url: string) => t.call({ method: 'GET', url, headers: authHeaders(login) });
    const unknown = await get('/api/security/treeview/target/c999999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.data.message).toContain('Target tree has no node "c999999"');
    // An endpoint of the activity tree is not a node of the ADME tree.
    const potency = (await children('activityendpoint', 'root')).nodes[0] as TreeNode;
    expect((await get(`/api/guidedsearch/pharmacokinetics/treeview/adme/${potency.id}`)).statusCode).toBe(404);
    // Ids carry names: an encoded slash reaches the tree, not the not-found route.
    const slashed = await get(`/api/security/treeview/bibliography/${enc('Jn:Acta Pharm/Sin')}`);
    expect(slashed.statusCode).toBe(404);
    expect(slashed.data.message).toContain('Bibliography tree has no node "Jn:Acta Pharm/Sin"');
    const malformed = await get('/api/security/treeview/target/EGFR');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.data.message).toContain('c<class id>, t<target id>');
    expect((await get('/api/guidedsearch/toxicity/treeview/x1')).statusCode).toBe(400);
    expect((await get('/api/security/treeview/genes/root')).statusCode).toBe(400);
    expect((await get('/api/security/treeview/target/search?term=')).statusCode).toBe(400);
    const emptyList = await t.call({
      method: 'POST',
      url: '/api/security/treeview/target/bynamelist',
      headers: authHeaders(login),
      payload: { names: [] },
    });
    expect(emptyList.statusCode).toBe(400);
  });

  it('answers 401 without a token and 403 to a role without search', async () => {
    expect((await t.call({ method: 'GET', url: '/api/security/treeview/target/root' })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/guidedsearch/toxicity/treeview/root' })).statusCode).toBe(401);
    const admin = await t.login(demoEmailForRole('FLAT_FILE_ONLY'));
    for (const request of [
      { method: 'GET' as const, url: '/api/security/treeview/target/root' },
      { method: 'GET' as const, url: '/api/guidedsearch/pharmacokinetics/treeview/adme/root' },
      { method: 'GET' as const, url: '/api/security/treeview/target/search?term=kinase' },
      { method: 'POST' as const, url: '/api/security/treeview/target/bynamelist', payload: { names: ['EGFR'] } },
    ]) {
      expect((await t.call({ ...request, headers: authHeaders(admin) })).statusCode, request.url).toBe(403);
    }
  });

  describe('treeSelectionMatch (the search compiler’s SQL for a tree row)', () => {
    async function strIds(tree: TreeKey, ids: string[]): Promise<Set<number>> {
      const m = treeSelectionMatch(tree, ids);
      const db = t.database.db;
      if (m.activity) {
        const { rows } = await sql<{ str_id: number }>`select distinct a.str_id from activities a
          left join assays ay on ay.assay_id = a.assay_id where ${m.activity}`.execute(db);
        return new Set(rows.map((r) => Number(r.str_id)));
      }
      const { rows } = await sql<{ str_id: number }>`select distinct s.str_id from (${m.structures}) s`.execute(db);
      const viaClinical = await sql<{
        n: number;
      }>`select count(distinct cc.str_id)::int as n from clinical_compounds cc where ${m.clinical}`.execute(db);
      expect(viaClinical.rows[0]?.n).toBe(rows.length);
      return new Set(rows.map((r) => Number(r.str_id)));
    }

    it('matches exactly the structures a node counts, for every node of every tree', async () => {
      for (const tree of TREE_KEYS) {
        // Activity trees answer an activity predicate; indication and clinical phase a structures query and a clinical predicate.
        const m = treeSelectionMatch(tree, [(await walk(tree))[0]?.id as string]);
        expect(Boolean(m.activity), tree).toBe(!['indication', 'clinicalphase'].includes(tree));
        expect(Boolean(m.structures && m.clinical), tree).toBe(['indication', 'clinicalphase'].includes(tree));
        for (const node of await walk(tree)) {
          expect((await strIds(tree, [node.id])).size, `${tree} ${node.id} ${node.label}`).toBe(node.count);
        }
      }
    }, 300_000);

    it('treats several nodes as alternatives (the union of their structures)', async () => {
      for (const tree of TREE_KEYS) {
        const withData = (await walk(tree)).filter((n) => n.count > 0);
        const picks = [withData[0], withData[withData.length - 1]].map((n) => (n as TreeNode).id);
        const union = new Set([...(await strIds(tree, [picks[0] as string])), ...(await strIds(tree, [picks[1] as string]))]);
        expect((await strIds(tree, picks)).size, `${tree} ${picks.join(' + ')}`).toBe(union.size);
      }
    }, 120_000);

    it('gives two-valued predicates: NOT of a selection matches every other activity', async () => {
      const db = t.database.db;
      const total = (await sql<{ n: number }>`select count(*)::int as n from activities`.execute(db)).rows[0]?.n;
      for (const tree of ['target', 'sourceontology', 'adme', 'toxicity', 'pathways', 'assaymethodname', 'bibliography'] as const) {
        const node = (await walk(tree)).find((n) => n.count > 0) as TreeNode;
        const activity = treeSelectionMatch(tree, [node.id]).activity;
        const { rows } = await sql<{ yes: number; no: number }>`select count(*) filter (where ${activity})::int as yes,
          count(*) filter (where not ${activity})::int as no
          from activities a left join assays ay on ay.assay_id = a.assay_id`.execute(db);
        expect((rows[0]?.yes ?? 0) + (rows[0]?.no ?? 0), tree).toBe(total);
        expect(rows[0]?.yes, tree).toBeGreaterThan(0);
      }
    });

    it('refuses a malformed or empty selection with 400', () => {
      const status = (fn: () => unknown) => {
        try {
          fn();
          return 200;
        } catch (error) {
          return error instanceof HttpError ? error.statusCode : 500;
        }
      };
      expect(status(() => treeSelectionMatch('target', ['EGFR']))).toBe(400);
      expect(status(() => treeSelectionMatch('bibliography', ['X']))).toBe(400);
      expect(status(() => treeSelectionMatch('clinicalphase', ['ph1:stX']))).toBe(400);
      expect(status(() => treeSelectionMatch('indication', []))).toBe(400);
      // Well-formed but unknown ids simply match nothing.
      expect(status(() => treeSelectionMatch('target', ['c999999']))).toBe(200);
    });
  });

  describe('refresh', () => {
    it('is idempotent and reports progress per tree', async () => {
      const db = t.database.db;
      const snapshot = () => db.selectFrom('tree_nodes').selectAll().orderBy('tree').orderBy('node_id').execute();
      const before = await snapshot();
      const steps: string[] = [];
      const summary = await refreshTreeCounts(db, (p) => steps.push(p.trees.join('+')));
      expect(summary.nodes).toBe(before.length);
      expect(steps.join(' ').split(/[ +]/).sort()).toEqual([...TREE_KEYS].sort());
      expect(await snapshot()).toEqual(before);
    }, 120_000);

    it('files records without a classification under "not reported" nodes, counted and matched like the rest', async () => {
      const db = t.database.db;
      const str = await db
        .insertInto('structures')
        .values({ smiles: 'CCN', canonical_smiles: 'CCN' })
        .returning('str_id')
        .executeTakeFirstOrThrow();
      const target = await db
        .insertInto('targets')
        .values({ name: 'Test protein complex', target_type: 'PROTEIN COMPLEX' })
        .returning('target_id')
        .executeTakeFirstOrThrow();
      const doc = await db
        .insertInto('documents')
        .values({ ref_type: 'book', title: 'A book without publisher or year' })
        .returning('ref_id')
        .executeTakeFirstOrThrow();
      const assay = await db
        .insertInto('assays')
        .values({ assay_type: 'unassigned', target_id: target.target_id, ref_id: doc.ref_id })
        .returning('assay_id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('activities')
        .values({ str_id: str.str_id, target_id: target.target_id, assay_id: assay.assay_id, ref_id: doc.ref_id })
        .execute();
      await db.insertInto('clinical_compounds').values({ str_id: str.str_id, drug_name: 'TEST-0001' }).execute();
      await refreshTreeCounts(db);
      walked.clear();

      const cases: [TreeKey, string, string][] = [
        ['target', 'u', 'Unclassified targets'],
        ['target', 'u:PROTEIN COMPLEX', 'PROTEIN COMPLEX'],
        ['target', `t${target.target_id}`, 'Test protein complex'],
        ['bibliography', 'O', 'Other sources'],
        ['bibliography', 'On:', 'Source not reported'],
        ['bibliography', 'Oy::', 'Year not reported'],
        ['assaymethodname', 'm:unassigned:', 'Method not reported'],
        ['clinicalphase', 'ph0', 'Phase not reported'],
        ['clinicalphase', 'ph0:st0', 'Status not reported'],
      ];
      for (const [tree, id, label] of cases) {
        const node = (await walk(tree)).find((n) => n.id === id);
        expect(node?.label, `${tree} ${id}`).toBe(label);
        expect(node?.count, `${tree} ${id}`).toBe(1);
        expect(node?.count).toBe(await expected.count(tree, id));
        const m = treeSelectionMatch(tree, [id]);
        const query = m.activity
          ? sql<{
              n: number;
            }>`select count(distinct a.str_id)::int as n from activities a left join assays ay on ay.assay_id = a.assay_id where ${m.activity}`
          : sql<{ n: number }>`select count(distinct str_id)::int as n from (${m.structures}) s`;
        expect((await query.execute(db)).rows[0]?.n, `${tree} ${id} matched`).toBe(1);
      }
    }, 120_000);

    it('rebuilds in the background once the knowledge base has changed and settled', async () => {
      const db = t.database.db;
      const service = new TreeService(db, { staleCheckMs: 0 });
      const kinase = (await walk('target')).find((n) => n.label === 'Kinase') as TreeNode;
      const egfr = await db.selectFrom('targets').select('target_id').where('gene_symbol', '=', 'EGFR').executeTakeFirstOrThrow();
      const countOf = async () =>
        (await service.children('target', kinase.parentid as string)).nodes.find((n) => n.id === kinase.id)?.count;
      expect(await countOf()).toBe(kinase.count);
      // A new structure measured on EGFR (a kinase).
      const str = await db
        .insertInto('structures')
        .values({ smiles: 'CCO', canonical_smiles: 'CCO' })
        .returning('str_id')
        .executeTakeFirstOrThrow();
      await db.insertInto('activities').values({ str_id: str.str_id, target_id: egfr.target_id, std_activity_type: 'IC50' }).execute();
      expect(await countOf()).toBe(kinase.count); // change seen; a load may still be running
      await countOf(); // unchanged since the last check: the rebuild starts in the background
      await service.idle();
      expect(await countOf()).toBe(kinase.count + 1);
    }, 120_000);
  });
});
