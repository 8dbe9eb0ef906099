import type { ColumnType, Generated } from 'kysely';
import type { ShareAccess, Visibility } from '@kb/contracts/workspace';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** Tables of the workspace (migration 0033_workspace.sql; docs/workspace.md). */
export interface WorkspaceTables {
  collections: {
    id: Generated<number>;
    owner_id: number;
    name: string;
    description: Generated<string>;
    visibility: ColumnType<Visibility, Visibility | undefined, Visibility>;
    org_access: ColumnType<ShareAccess, ShareAccess | undefined, ShareAccess>;
    compounds: Generated<number>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  collection_items: { collection_id: number; str_id: number; added_by: number | null; added_at: Timestamp };
  result_sets: {
    id: Generated<number>;
    owner_id: number;
    name: string;
    description: Generated<string>;
    visibility: ColumnType<Visibility, Visibility | undefined, Visibility>;
    org_access: ColumnType<ShareAccess, ShareAccess | undefined, ShareAccess>;
    tab: string;
    summary: string | null;
    counts: unknown;
    state: unknown;
    kb_version: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  workspace_shares: { object_kind: 'collection' | 'result_set'; object_id: number; user_id: number; access: ShareAccess };
}
