import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/**
 * A collection or saved result set the server answered 404 for: it was deleted, or it is not
 * shared with this user (the server never says which, so that ids cannot be probed).
 */
export function NotSharedPage({ what }: { what: 'collection' | 'saved result set' }) {
  return (
    <Center py={80} data-testid="workspace-not-found">
      <Stack align="center" gap="sm">
        <Title order={2}>Not found</Title>
        <Text c="dimmed" ta="center" maw={460}>
          This {what} does not exist or is not shared with you. Ask its owner to share it with you, or open your own from the workspace.
        </Text>
        <Button component={Link} to="/workspace">
          Go to the workspace
        </Button>
      </Stack>
    </Center>
  );
}

/** The id of a workspace address (`/workspace/collections/12`), or null when it is not one. */
export function idOfParam(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}
