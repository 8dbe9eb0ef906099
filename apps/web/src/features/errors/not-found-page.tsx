import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** The page of an unknown path. A page the role may not open has its own page (/accessdenied). */
export function NotFoundPage() {
  return (
    <Center py={80} data-page="not-found">
      <Stack align="center" gap="sm">
        <Title order={2}>Page not found</Title>
        <Text c="dimmed" ta="center" maw={420}>
          There is no page at this address. Check the link, or start again from the home page.
        </Text>
        <Button component={Link} to="/">
          Go to the home page
        </Button>
      </Stack>
    </Center>
  );
}
