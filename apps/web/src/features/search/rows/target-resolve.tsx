import { Anchor, Group, Loader, Modal, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { searchEndpoints } from '@kb/contracts/search-api';
import type { TargetTerm } from '@kb/contracts/search';
import type { TargetResolveResponse } from '@kb/contracts/targets';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { LOOKUP_DEBOUNCE_MS } from '../lookups/use-lookup.ts';

/**
 * What a Target row's terms stand for, asked of `/api/search/targets/resolve`: the server resolves
 * them with the resolver the search uses, so the figure shown is the targets the search will use.
 */

/** Targets listed in the row's "stands for" list (the count is always exact). */
const LISTED = 100;

/** Only what the resolver reads: the query key stays stable while chips only change their wording. */
const resolvable = (term: TargetTerm): TargetTerm => ({
  label: term.label,
  targetCategories: term.targetCategories,
  operator: '|',
  ...(term.ids?.length ? { ids: term.ids } : {}),
  ...(term.classIds?.length ? { classIds: term.classIds } : {}),
});

function useResolve(targets: TargetTerm[], limit: number, enabled: boolean) {
  return useQuery({
    queryKey: ['target-resolve', limit, targets],
    queryFn: ({ signal }) => callApi(searchEndpoints.targetsResolve, { body: { targets, limit } }, { signal }),
    enabled: enabled && targets.length > 0,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

const letters = (text: string) => [...text.matchAll(/[\p{L}\p{N}]/gu)].length;

/**
 * What the text being typed stands for as typed, and (when that is an exact identifier such as
 * "PARP1") as a prefix ("PARP1*"): the counts the dropdown shows beside the as-typed choices.
 */
export function useTypedTargetCounts(text: string, categories: TargetTerm['targetCategories']) {
  const typed = text.trim();
  const [debounced] = useDebouncedValue(typed, LOOKUP_DEBOUNCE_MS);
  const prefix = !/[*?]/.test(debounced) && letters(debounced) >= 3;
  const terms: TargetTerm[] = debounced
    ? [
        { label: debounced, targetCategories: categories, operator: '|' },
        ...(prefix ? [{ label: `${debounced}*`, targetCategories: categories, operator: '|' as const }] : []),
      ]
    : [];
  const query = useResolve(terms, 0, debounced.length > 0);
  const current = debounced === typed && !query.isFetching && !query.isPlaceholderData;
  const answer = current ? query.data : undefined;
  const asTyped = answer?.terms[0];
  const asPrefix = answer?.terms[1];
  return {
    loading: typed.length > 0 && !current,
    error: current && query.isError ? errorMessage(query.error) : null,
    asTyped,
    /** Offered only when the text named an identifier and the prefix stands for more. */
    asPrefix: asTyped?.match === 'identifier' && asPrefix && asPrefix.count > asTyped.count ? asPrefix : undefined,
  };
}

/** "— stands for 4 targets" beside an as-typed choice. */
export function TypedCount({ loading, error, count }: { loading: boolean; error: string | null; count: number | undefined }) {
  if (loading)
    return (
      <Text span size="xs" c="dimmed">
        {' '}
        — counting…
      </Text>
    );
  if (error)
    return (
      <Text span size="xs" c="red">
        {' '}
        — {error}
      </Text>
    );
  if (count === undefined) return null;
  return (
    <Text span size="xs" c={count === 0 ? 'orange' : 'dimmed'}>
      {' '}
      — {count === 0 ? 'matches no target' : `stands for ${countNoun(count, 'target')}`}
    </Text>
  );
}

/** "Stands for 14 targets": the row's terms together; a click lists them (name, gene, UniProt, organism). */
export function TargetRowSummary({ terms }: { terms: TargetTerm[] }) {
  const [open, setOpen] = useState(false);
  const query = useResolve(terms.map(resolvable), LISTED, true);
  if (terms.length === 0) return null;
  if (query.isError) {
    return (
      <Text size="xs" c="red" data-testid="target-row-count">
        {errorMessage(query.error)}
      </Text>
    );
  }
  const data: TargetResolveResponse | undefined = query.data;
  return (
    <>
      <Group gap={6} data-testid="target-row-count" aria-busy={query.isFetching}>
        {!data ? (
          <>
            <Loader size={12} />
            <Text size="xs" c="dimmed">
              Counting targets…
            </Text>
          </>
        ) : (
          <Text size="xs" c={data.count === 0 ? 'orange' : 'dimmed'}>
            {data.count === 0 ? (
              'These terms stand for no target.'
            ) : (
              <>
                Stands for{' '}
                <Anchor
                  component="button"
                  type="button"
                  size="xs"
                  onClick={() => setOpen(true)}
                  data-testid="target-row-count-open"
                  data-count={data.count}
                >
                  {countNoun(data.count, 'target')}
                </Anchor>
              </>
            )}
          </Text>
        )}
        {data && query.isFetching && <Loader size={10} />}
      </Group>
      <Modal
        opened={open && !!data}
        onClose={() => setOpen(false)}
        title={data ? `The row stands for ${countNoun(data.count, 'target')}` : ''}
        size="lg"
        centered
      >
        {data && (
          <>
            <Table striped withTableBorder fz="xs" data-testid="target-row-list">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Gene</Table.Th>
                  <Table.Th>UniProt</Table.Th>
                  <Table.Th>Organism</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.targets.map((target) => (
                  <Table.Tr key={target.target_id}>
                    <Table.Td>{target.name}</Table.Td>
                    <Table.Td>{target.gene_symbol ?? '—'}</Table.Td>
                    <Table.Td>{target.uniprot_id ?? '—'}</Table.Td>
                    <Table.Td>{target.organism ?? '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {data.count > data.targets.length && (
              <Text size="xs" c="dimmed" mt="xs">
                The first {formatCount(data.targets.length)} of {formatCount(data.count)} by name; the search uses all of them.
              </Text>
            )}
          </>
        )}
      </Modal>
    </>
  );
}
