import { CollectionPage } from '../features/workspace/collection/collection-page.tsx';
import { ResultSetPage } from '../features/workspace/restore/result-set-page.tsx';
import { SheetPage } from '../features/workspace/sheet/sheet-page.tsx';
import { WorkspaceHome } from '../features/workspace/workspace-home.tsx';

/**
 * The workspace's pages (issue 59). The workspace sits above every feature it uses (results,
 * export, leaflets), so it needs no slot: each page is the feature's own component.
 */

/** /workspace: collections, saved result sets, history. */
export function WorkspacePage() {
  return <WorkspaceHome />;
}

/** /workspace/collections/:id */
export function WorkspaceCollectionPage() {
  return <CollectionPage />;
}

/** /workspace/result-sets/:id: a saved result set's permanent link. */
export function WorkspaceResultSetPage() {
  return <ResultSetPage />;
}

/** /sheet: the compound × endpoint sheet of a result set or collection. */
export function CompoundSheetPage() {
  return <SheetPage />;
}
