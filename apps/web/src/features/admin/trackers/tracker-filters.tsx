import { Button, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { trackerEndpoints } from '@kb/contracts/admin-trackers';
import { endpointQuery } from '../../../app/query.ts';

/** The filters every tracker shares, as the API takes them (empty ones left out). */
export interface TrackerFilterValues {
  user?: string;
  organisationId?: number;
  from?: string;
  to?: string;
}

/** The filter state of one tab; `values` is undefined while the dates are out of order (nothing is asked then). */
export function useTrackerFilters() {
  const [user, setUser] = useState('');
  const [organisationId, setOrganisationId] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [debouncedUser] = useDebouncedValue(user.trim(), 300);
  const dateError = from && to && from > to ? 'The from-date is after the to-date.' : null;
  const values: TrackerFilterValues | undefined = dateError
    ? undefined
    : {
        ...(debouncedUser ? { user: debouncedUser } : {}),
        ...(organisationId ? { organisationId: Number(organisationId) } : {}),
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
      };
  const clear = () => {
    setUser('');
    setOrganisationId(null);
    setFrom('');
    setTo('');
  };
  return { user, setUser, organisationId, setOrganisationId, from, setFrom, to, setTo, dateError, values, clear };
}

export type TrackerFilterState = ReturnType<typeof useTrackerFilters>;

/** User (e-mail contains), organisation and a range of days; keyboard usable (native date inputs). */
export function TrackerFilters({ state, children }: { state: TrackerFilterState; children?: React.ReactNode }) {
  const organisations = useQuery({ ...endpointQuery(trackerEndpoints.organisations, {}), staleTime: 5 * 60_000 });
  const anySet = state.user || state.organisationId || state.from || state.to;
  return (
    <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
      <TextInput
        label="User"
        placeholder="E-mail contains"
        leftSection={<IconSearch size={16} />}
        value={state.user}
        maxLength={254}
        onChange={(event) => state.setUser(event.currentTarget.value)}
        w={220}
      />
      <Select
        label="Organisation"
        placeholder={organisations.isError ? 'Could not load organisations' : 'Any organisation'}
        data={(organisations.data?.rows ?? []).map((o) => ({ value: String(o.id), label: o.name }))}
        value={state.organisationId}
        onChange={state.setOrganisationId}
        searchable
        clearable
        nothingFoundMessage="No organisation"
        disabled={organisations.isPending}
        w={220}
      />
      <TextInput
        label="From"
        type="date"
        value={state.from}
        onChange={(event) => state.setFrom(event.currentTarget.value)}
        error={state.dateError}
        w={160}
      />
      <TextInput label="To" type="date" value={state.to} onChange={(event) => state.setTo(event.currentTarget.value)} w={160} />
      {children}
      <Button variant="subtle" onClick={state.clear} disabled={!anySet}>
        Clear filters
      </Button>
    </Group>
  );
}
