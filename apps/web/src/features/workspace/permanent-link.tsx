import { Anchor, Button, CopyButton, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { navigateTo } from '../../app/navigation.ts';
import { IconCheck, IconLink } from '@tabler/icons-react';

/** The link of a collection or saved result set; it opens for whoever it is shared with, and is a not-found page for anyone else. */
export function workspaceLink(kind: 'collection' | 'resultSet', id: number): string {
  return kind === 'collection' ? `/workspace/collections/${id}` : `/workspace/result-sets/${id}`;
}

export function CopyWorkspaceLink({ path }: { path: string }) {
  return (
    <CopyButton value={`${window.location.origin}${path}`} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip
          label={copied ? 'Copied' : 'A permanent link: it opens for you and the colleagues it is shared with'}
          withArrow
          multiline
          w={260}
        >
          <Button
            size="xs"
            variant="light"
            color={copied ? 'teal' : 'gray'}
            leftSection={copied ? <IconCheck size={14} /> : <IconLink size={14} />}
            onClick={copy}
            data-testid="copy-workspace-link"
            data-link={path}
          >
            {copied ? 'Link copied' : 'Copy link'}
          </Button>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/**
 * A link inside a notification. Notifications render outside the router, where its <Link> cannot
 * work: this one is a plain link that navigates in the app when clicked (a new tab still opens it).
 */
export function ToastLink({ to, children, testId }: { to: string; children: ReactNode; testId?: string }) {
  return (
    <Anchor
      href={to}
      size="sm"
      data-testid={testId}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigateTo(to);
      }}
    >
      {children}
    </Anchor>
  );
}
