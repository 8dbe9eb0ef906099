/**
 * The user manual's chapters: one Markdown file each in `user-manual/`, named `NN-id.md`. `NN` orders
 * the chapters, `id` is the chapter's anchor (`/usermanual#id`), and the file's first line is its
 * title as `# Title`. The rest is the chapter's text, in Markdown with GitHub's tables
 * (user-manual-markdown.tsx renders it; raw HTML is not rendered). Adding a chapter is adding a file:
 * the table of contents follows.
 */
const FILES = import.meta.glob<string>('./user-manual/*.md', { query: '?raw', import: 'default', eager: true });

export interface ManualChapter {
  /** Anchor of the chapter's section, from the file name. */
  id: string;
  /** Title: the file's `# ` line, in plain text. */
  title: string;
  /** The Markdown after the title. */
  body: string;
  /** The file, for error messages and tests, e.g. `01-logging-in.md`. */
  file: string;
}

const FILE_NAME = /^\.\/user-manual\/(\d{2}-([a-z0-9]+(?:-[a-z0-9]+)*)\.md)$/;
const TITLE_LINE = /^# (\S.*)$/;

/** One chapter from its file; throws when the name or the first line does not follow the convention. */
export function parseChapter(path: string, markdown: string): ManualChapter {
  const name = FILE_NAME.exec(path);
  if (!name) throw new Error(`User manual: ${path} is not named NN-id.md (e.g. 01-logging-in.md).`);
  const [first = '', ...rest] = markdown.replace(/^\uFEFF/, '').split(/\r?\n/);
  const title = TITLE_LINE.exec(first.trimEnd());
  if (!title) throw new Error(`User manual: ${path} does not start with its title as "# Title".`);
  return { id: name[2]!, title: title[1]!.trim(), body: rest.join('\n').trim(), file: name[1]! };
}

/** The chapters in the order of their file names. */
export const USER_MANUAL_CHAPTERS: readonly ManualChapter[] = Object.keys(FILES)
  .sort()
  .map((path) => parseChapter(path, FILES[path]!));

/** Anchor of a heading inside a chapter (`## Some heading` → `some-heading`), as GitHub makes them. */
export function headingId(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}
