import { Select } from '@mantine/core';
import type { SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import { endpointQuery } from '../../../app/query.ts';

/**
 * An organisation picked by name: the server searches as the administrator types (there may be
 * more organisations than one page), and the chosen one keeps its name while the search changes.
 */
export function OrganisationSelect({
  value: given,
  onChange,
  initialName,
  ...props
}: Omit<SelectProps, 'data' | 'value' | 'onChange' | 'searchable' | 'searchValue' | 'onSearchChange'> & {
  value?: string | null;
  onChange: (value: string | null) => void;
  /** The name of the organisation `value` names, when it is known already (editing a user). */
  initialName?: string | null;
}) {
  const value = given ?? null;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const names = useRef(new Map<string, string>());
  if (value && initialName && !names.current.has(value)) names.current.set(value, initialName);
  // While the box shows the chosen name, list every organisation rather than that one only.
  const chosenName = value ? names.current.get(value) : undefined;
  const q = debounced.trim() && debounced !== chosenName ? debounced.trim() : undefined;
  const query = useQuery({
    ...endpointQuery(adminAccountEndpoints.organisations, { query: { page: 1, pageSize: 50, ...(q ? { q } : {}) } }),
    placeholderData: keepPreviousData,
  });
  const data = useMemo(() => {
    const options = (query.data?.rows ?? []).map((row) => {
      names.current.set(String(row.id), row.name);
      return { value: String(row.id), label: row.active ? row.name : `${row.name} (inactive)` };
    });
    if (value && !options.some((option) => option.value === value))
      options.unshift({ value, label: names.current.get(value) ?? `Organisation ${value}` });
    return options;
  }, [query.data, value]);
  return (
    <Select
      {...props}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={
        query.isFetching ? 'Searching…' : query.isError ? 'Could not load the organisations.' : 'No organisation matches.'
      }
    />
  );
}
