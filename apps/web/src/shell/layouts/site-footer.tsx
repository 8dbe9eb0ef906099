import { Anchor, Container, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import classes from './layout.module.css';

export function SiteFooter() {
  return (
    <footer className={classes.footer}>
      <Container size="lg">
        <Group justify="space-between" gap="xs">
          <Group gap="md">
            <Anchor component={Link} to="/usermanual" size="sm">
              User manual
            </Anchor>
            <Anchor component={Link} to="/keywords" size="sm">
              Keywords
            </Anchor>
            <Anchor component={Link} to="/policies" size="sm">
              Policies
            </Anchor>
          </Group>
          <Text size="xs" c="dimmed">
            ChEMBL data is from http://www.ebi.ac.uk/chembl, licensed CC BY-SA 3.0.
          </Text>
        </Group>
      </Container>
    </footer>
  );
}
