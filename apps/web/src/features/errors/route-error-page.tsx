import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Shown when rendering a page throws; the rest of the app stays usable. */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Center py={80} data-page="error">
      <Stack align="center" gap="sm">
        <Title order={2}>Something went wrong</Title>
        <Text c="dimmed">This page could not be shown. Reload the page or go back to the home page.</Text>
        <Code>{detail}</Code>
        <Button component="a" href="/">
          Go to the home page
        </Button>
      </Stack>
    </Center>
  );
}
