import { Anchor, Code, Divider, List, Table, Text, Title } from '@mantine/core';
import type { TitleOrder } from '@mantine/core';
import type { ReactNode } from 'react';
import Markdown from 'react-markdown';
import type { Components, ExtraProps } from 'react-markdown';
import { Link } from 'react-router';
import remarkGfm from 'remark-gfm';
import { headingId } from './user-manual-chapters.ts';

type HastNode = NonNullable<ExtraProps['node']>;

/** The text of a hast element and its descendants (a code block's source, a heading's words). */
function textOf(node: HastNode | HastNode['children'][number] | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/** What a link of the manual points to: a heading of this page, a page of the app, or another site. */
export type LinkKind = 'anchor' | 'in-app' | 'external' | 'other';

export function linkKind(href: string | undefined): LinkKind {
  if (!href) return 'other';
  if (href.startsWith('#')) return 'anchor';
  if (href.startsWith('/') && !href.startsWith('//')) return 'in-app';
  if (/^(https?:|mailto:)/i.test(href)) return 'external';
  return 'other';
}

function ManualLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  switch (linkKind(href)) {
    case 'anchor':
      return <Anchor href={href}>{children}</Anchor>;
    case 'in-app':
      // Through the router: no page reload, the session and open searches stay.
      return (
        <Anchor component={Link} to={href ?? '/'}>
          {children}
        </Anchor>
      );
    case 'external':
      return (
        <Anchor href={href} target="_blank" rel="noopener noreferrer">
          {children}
        </Anchor>
      );
    default:
      // Nothing else is a link in the manual (user-manual.test.tsx checks the files).
      return <>{children}</>;
  }
}

function cellAlign(align: string | undefined): 'left' | 'center' | 'right' | undefined {
  return align === 'left' || align === 'center' || align === 'right' ? align : undefined;
}

/** A heading inside a chapter: `##` sits under the chapter's title (order 3), with an anchor. */
function subheading(order: TitleOrder) {
  return function ManualHeading({ node, children }: { node?: HastNode; children?: ReactNode }) {
    return (
      <Title order={order} id={headingId(textOf(node))} mt="xs">
        {children}
      </Title>
    );
  };
}

/** Markdown elements as the app's Mantine components, so that the manual looks like the other pages. */
const COMPONENTS: Components = {
  // A chapter's title is rendered by the page (user-manual-chapters.ts takes it from the first line).
  h1: subheading(4),
  h2: subheading(4),
  h3: subheading(5),
  h4: subheading(6),
  h5: subheading(6),
  h6: subheading(6),
  p: ({ children }) => <Text inherit>{children}</Text>,
  a: ({ href, children }) => <ManualLink href={href}>{children}</ManualLink>,
  ul: ({ children }) => (
    <List size="sm" spacing={2}>
      {children}
    </List>
  ),
  ol: ({ children, start }) => (
    <List type="ordered" size="sm" spacing={2} start={start}>
      {children}
    </List>
  ),
  li: ({ children }) => <List.Item>{children}</List.Item>,
  code: ({ children }) => <Code>{children}</Code>,
  pre: ({ node }) => <Code block>{textOf(node)}</Code>,
  hr: () => <Divider />,
  table: ({ children }) => (
    <Table.ScrollContainer minWidth={480} type="native">
      <Table withTableBorder>{children}</Table>
    </Table.ScrollContainer>
  ),
  thead: ({ children }) => <Table.Thead>{children}</Table.Thead>,
  tbody: ({ children }) => <Table.Tbody>{children}</Table.Tbody>,
  tr: ({ children }) => <Table.Tr>{children}</Table.Tr>,
  th: ({ children, align }) => <Table.Th ta={cellAlign(align)}>{children}</Table.Th>,
  td: ({ children, align }) => <Table.Td ta={cellAlign(align)}>{children}</Table.Td>,
};

const REMARK_PLUGINS = [remarkGfm];

/** Markdown of the user manual as Mantine components; raw HTML in it is dropped, not rendered. */
export function ManualMarkdown({ children }: { children: string }) {
  return (
    <Markdown remarkPlugins={REMARK_PLUGINS} components={COMPONENTS} skipHtml>
      {children}
    </Markdown>
  );
}
