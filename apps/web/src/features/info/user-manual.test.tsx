import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import { MemoryRouter, matchPath } from 'react-router';
import remarkGfm from 'remark-gfm';
import { describe, expect, it } from 'vitest';
import { PAGE_BY_PATH } from '../../shell/pages.tsx';
import { USER_MANUAL_CHAPTERS, headingId, parseChapter } from './user-manual-chapters.ts';
import { ManualMarkdown, linkKind } from './user-manual-markdown.tsx';
import { UserManualPage } from './user-manual-page.tsx';

/** Every link target of a chapter, as react-markdown with GitHub's extensions reads the file (inline, reference and bare links). */
function linksOf(markdown: string): string[] {
  const links: string[] = [];
  renderToStaticMarkup(
    <Markdown
      remarkPlugins={[remarkGfm]}
      components={{
        a: ({ href }) => {
          links.push(href ?? '');
          return null;
        },
      }}
    >
      {markdown}
    </Markdown>,
  );
  return links;
}

function render(node: React.ReactNode, path = '/usermanual'): string {
  return renderToStaticMarkup(
    <MantineProvider>
      <MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>
    </MantineProvider>,
  );
}

/** The HTML elements of a rendered page with their attributes, e.g. `<a href="/login" ...>`. */
function tags(html: string, name: string): string[] {
  return html.match(new RegExp(`<${name}\\b[^>]*>`, 'g')) ?? [];
}

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

const pageHtml = render(<UserManualPage />);
const ids = new Set(tags(pageHtml, '[a-z0-9]+').flatMap((tag) => attribute(tag, 'id') ?? []));

describe('the user manual', () => {
  it('has its chapters, each with a title, some text and an id of its own', () => {
    expect(USER_MANUAL_CHAPTERS.length).toBeGreaterThanOrEqual(17);
    for (const chapter of USER_MANUAL_CHAPTERS) {
      expect(chapter.title, chapter.file).not.toBe('');
      expect(chapter.body.length, `${chapter.file} has text under its title`).toBeGreaterThan(100);
      expect(chapter.body, `${chapter.file} has one "# " title, on its first line`).not.toMatch(/^# /m);
    }
    expect(new Set(USER_MANUAL_CHAPTERS.map((c) => c.id)).size).toBe(USER_MANUAL_CHAPTERS.length);
    // The anchors other pages and bookmarks use.
    expect(USER_MANUAL_CHAPTERS.map((c) => c.id)).toEqual(
      expect.arrayContaining(['logging-in', 'roles', 'searching', 'structure', 'results', 'sar-view', 'analyzers', 'export', 'two-step']),
    );
  });

  it('renders every chapter as a section with its title as a heading, listed in the table of contents', () => {
    for (const { id, title } of USER_MANUAL_CHAPTERS) {
      expect(pageHtml).toContain(`<section`);
      expect(tags(pageHtml, 'section').some((tag) => attribute(tag, 'id') === id)).toBe(true);
      const heading = new RegExp(`<h3[^>]*id="${id}-title"[^>]*>([^<]*)</h3>`).exec(pageHtml);
      expect(heading?.[1], `the heading of #${id}`).toBe(title.replaceAll('&', '&amp;'));
      expect(tags(pageHtml, 'a').some((tag) => attribute(tag, 'href') === `#${id}`)).toBe(true);
    }
  });

  it('gives every element id once', () => {
    const all = tags(pageHtml, '[a-z0-9]+').flatMap((tag) => attribute(tag, 'id') ?? []);
    expect(all.filter((id, i) => all.indexOf(id) !== i)).toEqual([]);
  });

  it('links only to headings of the page, pages of the app and other sites', () => {
    const routes = Object.keys(PAGE_BY_PATH);
    for (const chapter of USER_MANUAL_CHAPTERS) {
      for (const href of linksOf(chapter.body)) {
        const where = `${chapter.file}: ${href}`;
        const kind = linkKind(href);
        expect(kind, where).not.toBe('other');
        if (kind === 'anchor') expect(ids.has(decodeURIComponent(href.slice(1))), `${where} names a heading of the manual`).toBe(true);
        if (kind === 'in-app') {
          const pathname = new URL(href, 'http://app.invalid').pathname;
          expect(
            routes.some((route) => matchPath(route, pathname)),
            `${where} is a page of the app (PAGE_BY_PATH)`,
          ).toBe(true);
        }
      }
    }
  });

  it('renders links in the page as the app does: in-app through the router, others in a new tab', () => {
    const links = tags(pageHtml, 'a');
    expect(links.some((tag) => attribute(tag, 'href') === '/login')).toBe(true);
    for (const tag of links.filter((t) => linkKind(attribute(t, 'href')) === 'external')) {
      expect(attribute(tag, 'target'), tag).toBe('_blank');
      expect(attribute(tag, 'rel'), tag).toContain('noopener');
    }
    const external = render(<ManualMarkdown>{'See [ChEMBL](https://www.ebi.ac.uk/chembl/) and [Policies](/policies).'}</ManualMarkdown>);
    expect(external).toMatch(/<a[^>]*href="https:\/\/www\.ebi\.ac\.uk\/chembl\/"[^>]*target="_blank"[^>]*rel="noopener noreferrer"/);
    expect(external).toMatch(/<a[^>]*href="\/policies"/);
  });

  it('holds no raw HTML, and would not render it', () => {
    for (const chapter of USER_MANUAL_CHAPTERS) {
      // Outside code spans, a "<" followed by a letter, "/" or "!" starts an HTML tag or comment; "\<" is an escaped "<".
      const prose = chapter.body.replace(/`[^`]*`/g, '');
      expect(prose, chapter.file).not.toMatch(/(?<!\\)<[A-Za-z/!?]/);
    }
    const html = render(<ManualMarkdown>{'Before <script>alert(1)</script> <b onclick="x()">after</b>'}</ManualMarkdown>);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onclick');
  });

  it('renders tables, code and lists as Mantine components', () => {
    const html = render(<ManualMarkdown>{'| A | B |\n| --- | --- |\n| `x` | y |\n\n- one\n- two\n\n## A heading'}</ManualMarkdown>);
    expect(html).toMatch(/<table[^>]*class="[^"]*mantine-Table-table/);
    expect(html).toMatch(/<code[^>]*class="[^"]*mantine-Code-root[^"]*"[^>]*>x<\/code>/);
    expect(html).toMatch(/<ul[^>]*class="[^"]*mantine-List-root/);
    expect(html).toMatch(/<h4[^>]*id="a-heading"/);
  });

  it('refuses a chapter file that does not follow the naming convention', () => {
    expect(() => parseChapter('./user-manual/logging-in.md', '# Title\n\nText')).toThrow(/NN-id\.md/);
    expect(() => parseChapter('./user-manual/01-logging-in.md', 'Title\n\nText')).toThrow(/# Title/);
    expect(parseChapter('./user-manual/01-logging-in.md', '# Logging in\n\nText.')).toEqual({
      id: 'logging-in',
      title: 'Logging in',
      body: 'Text.',
      file: '01-logging-in.md',
    });
    expect(headingId('Rule of 5 & Rule of 3')).toBe('rule-of-5--rule-of-3');
  });
});
