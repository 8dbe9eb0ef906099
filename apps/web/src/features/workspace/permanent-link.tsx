import { Button, CopyButton, Tooltip } from '@mantine/core';
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
