import { Badge, Text, Tooltip } from '@mantine/core';
import { IconBuilding, IconLock, IconUsers } from '@tabler/icons-react';
import type { Person, Visibility } from '@kb/contracts/workspace';

/** Who owns it: "you", or the colleague's name (their e-mail on hover). */
export function OwnerText({ owner, mine }: { owner: Person; mine: boolean }) {
  if (mine) return <Text size="sm">you</Text>;
  return (
    <Tooltip label={owner.email}>
      <Text size="sm">{owner.name}</Text>
    </Tooltip>
  );
}

/** What the visibility badge says: "Private", "Shared with 3", "Organisation". */
function visibilityLabel(visibility: Visibility, people?: number): string {
  if (visibility === 'private') return 'Private';
  if (visibility === 'organisation') return 'Organisation';
  return people === undefined ? 'Shared with colleagues' : `Shared with ${people}`;
}

export function VisibilityBadge({ visibility, people }: { visibility: Visibility; people?: number }) {
  const icon =
    visibility === 'private' ? (
      <IconLock size={12} />
    ) : visibility === 'organisation' ? (
      <IconBuilding size={12} />
    ) : (
      <IconUsers size={12} />
    );
  const color = visibility === 'private' ? 'gray' : visibility === 'organisation' ? 'teal' : 'blue';
  return (
    <Badge variant="light" color={color} tt="none" leftSection={icon} data-testid="visibility-badge" data-visibility={visibility}>
      {visibilityLabel(visibility, people)}
    </Badge>
  );
}
