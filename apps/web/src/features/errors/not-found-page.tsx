import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** The not-found page; `/accessdenied` renders it too (spec §2). */
export function NotFoundPage({ route }: { route?: string }) {
  return (
    <Center py={80} data-page="not-found" data-route={route}>
      <Stack align="center" gap="sm">
        <Title order={2}>Page not found</Title>
        <Text c="dimmed" ta="center" maw={420}>
          The page you asked for does not exist or is not available to your role.
        </Text>
        <Button component={Link} to="/">
          Go to the home page
        </Button>
      </Stack>
    </Center>
  );
}
