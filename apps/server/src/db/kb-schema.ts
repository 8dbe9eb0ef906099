/**
 * Kysely table types of the knowledge base (structures, compounds, targets, assays, activities,
 * references, development compounds, trees, sources). Filled in by the knowledge-base migrations.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface KnowledgeBaseTables {}
