import type { ComponentType } from 'react';
import { createContext, useContext } from 'react';

/** What a structure row holds, as far as an action on its structure needs it. */
export interface RowStructure {
  inputType: string;
  value: string;
  feature: 'desalted' | 'asis';
}

/** An action shown beside a structure row's "Draw" button, given the row as it stands. */
export type StructureAction = ComponentType<{ row: RowStructure }>;

/**
 * The actions a page adds to every structure editor inside it. Search sits below the features that
 * act on a drawn structure (target prediction), so it cannot import them: the page that mounts
 * search hands them in (apps/web/src/pages/). None by default.
 */
const StructureActionsContext = createContext<readonly StructureAction[]>([]);

export const StructureActionsProvider = StructureActionsContext.Provider;

export function useStructureActions(): readonly StructureAction[] {
  return useContext(StructureActionsContext);
}
