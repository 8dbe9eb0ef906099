import type { RawBuilder } from 'kysely';
import type { TreeKey } from '@kb/contracts/trees';

/**
 * What a tree-row selection matches, for the search compiler (modules/search). Node ids are the
 * tree module's own encoding, so only it can turn them into SQL.
 */
export interface TreeMatch {
  /** SQL boolean over activity alias `a` and its assay alias `ay` (LEFT JOIN assays ay ON ay.assay_id = a.assay_id). */
  activity?: RawBuilder<boolean>;
  /** A query selecting column `str_id`: structures matched without going through activities (indication, clinical phase). */
  structures?: RawBuilder<unknown>;
  /** SQL boolean over clinical-compound alias `cc` (indication, clinical phase). */
  clinical?: RawBuilder<boolean>;
}

/** TO BE IMPLEMENTED by the tree module. Throws HttpError 400 on malformed node ids. */
export function treeSelectionMatch(tree: TreeKey, nodeIds: readonly string[]): TreeMatch {
  void tree;
  void nodeIds;
  throw new Error('treeSelectionMatch is not implemented yet');
}
