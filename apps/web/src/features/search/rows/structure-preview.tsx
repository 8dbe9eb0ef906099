import type { EditorProps } from './editor-props.ts';

/** Live preview of the structure query's first hits (filled by the chemistry-engine work). */
export function StructureHitsPreview(_props: Pick<EditorProps<'structure'>, 'draft'>) {
  return null;
}
