import { Alert, Box, Button, Grid, Group, Kbd, Stack, Text } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconSearch, IconX } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { searchEndpoints } from '@kb/contracts/search-api';
import { callApi } from '../../app/api-client.ts';
import { useSearchBuilderStore } from './builder/search-builder-store.ts';
import { useSearchChartsStore } from './saved/search-charts-store.ts';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { buildCriteria, rowHasValue } from './builder/row-criteria.ts';
import { rowTitle } from './builder/row-drafts.ts';
import { criteriaToDrafts } from './builder/row-restore.ts';
import { SearchBuilder, focusRow } from './builder/search-builder.tsx';
import { CountsPanel } from './counts/counts-panel.tsx';
import { useSearchRunner } from './run/use-search-runner.ts';
import type { LoadedSearch } from './saved/load-search.ts';
import { loadSavedCriteria } from './saved/load-search.ts';
import { SavedQueryActions } from './saved/saved-queries.tsx';
import { describeSearch } from './saved/search-summary.ts';
import { findSearchOption, rowKindOf } from './search-options.ts';
import { useConfirm } from '../../app/ui/confirm-dialog.tsx';
import { allOf, capitalize, countNoun } from '../../app/format/plural.ts';

/** Moves the focus to the first field marked invalid, once the marks are on screen. */
function focusFirstError(): void {
  requestAnimationFrame(() => {
    const field = document.querySelector<HTMLElement>('[data-testid="search-builder"] [aria-invalid="true"]');
    field?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    field?.focus({ preventScroll: true });
  });
}

/** Loading into the builder: replaces the rows (asking first when unsaved rows would go) and the saved charts. */
function useLoadIntoBuilder(confirm: ReturnType<typeof useConfirm>[0]) {
  const replaceRows = useSearchBuilderStore((state) => state.replaceRows);
  const applySavedQuery = useSearchChartsStore((state) => state.applySavedQuery);
  return async (loaded: LoadedSearch, options: { ask?: boolean } = {}): Promise<boolean> => {
    const { rows, dirty } = useSearchBuilderStore.getState();
    if ((options.ask ?? true) && dirty && rows.some(rowHasValue)) {
      const ok = await confirm({
        title: `Open “${loaded.name}”?`,
        detail: 'Your current rows have not been searched or saved and will be replaced.',
        confirmLabel: 'Replace my rows',
      });
      if (!ok) return false;
    }
    replaceRows(criteriaToDrafts(loaded.criteria));
    applySavedQuery(loaded.appliedFilters);
    notifications.show({ color: 'green', message: `Opened “${loaded.name}” (${countNoun(loaded.criteria.rows.length, 'row')}).` });
    return true;
  };
}

/**
 * Spec §4: a saved default search opens in an empty builder once per session; the navbar's
 * `?group=&option=` adds a row; `?criteria=` (from the home page) loads a saved search.
 */
function useBuilderEntry(
  load: (loaded: LoadedSearch, options?: { ask?: boolean }) => Promise<boolean>,
  onError: (message: string) => void,
) {
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const handled = useRef<string | null>(null);
  const addRow = useSearchBuilderStore((state) => state.addRow);

  useEffect(() => {
    // Strict mode runs effects twice; a navigation is handled once.
    if (handled.current === location.key) return;
    handled.current = location.key;
    const found = findSearchOption(params.get('group'), params.get('option'));
    const kind = found ? rowKindOf(found.group, found.option) : null;
    if (kind) focusRow(kind.selectedOption === 'treeview' ? addRow('treeview', kind.tree) : addRow(kind.selectedOption));
    const criteriaId = Number(params.get('criteria'));
    if (Number.isInteger(criteriaId) && criteriaId > 0) {
      void loadSavedCriteria(criteriaId)
        .then((loaded) => load(loaded))
        .catch((error: unknown) =>
          onError(`The saved search could not be opened: ${error instanceof Error ? error.message : String(error)}`),
        );
    } else if (!kind && useSearchBuilderStore.getState().pristine) {
      useSearchBuilderStore.setState({ pristine: false });
      // A missing or failing default is not worth an error: the user simply starts empty.
      void callApi(searchEndpoints.criteriaFetch, {})
        .then(async (list) => {
          const chosen = list.rows.find((option) => option.is_active);
          if (!chosen || useSearchBuilderStore.getState().rows.length > 0) return;
          const loaded = await loadSavedCriteria(chosen.criteria_id);
          if (useSearchBuilderStore.getState().rows.length === 0) await load(loaded, { ask: false });
        })
        .catch(() => undefined);
    }
    if (params.has('group') || params.has('option') || params.has('criteria')) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const key of ['group', 'option', 'criteria']) next.delete(key);
          return next;
        },
        { replace: true },
      );
    }
  }, [location.key, params, setParams, addRow, load, onError]);
}

/** The search page (spec §2 search builder, §3 counts, §4 search flow): rows on the left, counts on the right. */
export function SearchPage() {
  const rows = useSearchBuilderStore((state) => state.rows);
  const status = useSearchBuilderStore((state) => state.status);
  const clearRows = useSearchBuilderStore((state) => state.clearRows);
  const [showErrors, setShowErrors] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const runner = useSearchRunner();
  const built = useMemo(() => buildCriteria(rows), [rows]);
  const load = useLoadIntoBuilder(confirm);
  const loadRef = useRef(load);
  loadRef.current = load;
  const stableLoad = useRef((loaded: LoadedSearch, options?: { ask?: boolean }) => loadRef.current(loaded, options)).current;
  const stableError = useRef((message: string) => setPageError(message)).current;
  useBuilderEntry(stableLoad, stableError);

  // Once the user fixed what was marked, the message about it goes too.
  useEffect(() => {
    if (showErrors && formError && built.criteria) setFormError(null);
  }, [built, showErrors, formError]);

  const search = async () => {
    setShowErrors(true);
    if (!built.criteria) {
      setFormError(built.formError);
      focusFirstError();
      return;
    }
    if (built.skipped.length > 0) {
      const names = rows
        .map((row, index) => ({ row, index }))
        .filter(({ row }) => built.skipped.includes(row.key))
        .map(({ row, index }) => `row ${index + 1} (${rowTitle(row)})`);
      const ok = await confirm({
        title: 'Some rows are empty',
        detail: `${names.join(', ')} ${names.length === 1 ? 'has' : 'have'} no value and will be left out of the search.`,
        confirmLabel: 'Search without them',
      });
      if (!ok) return;
    }
    setFormError(null);
    const included = rows.filter((row) => built.included.includes(row.key));
    await runner.run(built.criteria, describeSearch(built.criteria, included));
  };

  const clearAll = async () => {
    // Rows that were searched or saved can come back (recent searches, the saved query); others are asked about.
    if (useSearchBuilderStore.getState().dirty && rows.some(rowHasValue)) {
      const ok = await confirm({
        title: rows.length === 1 ? 'Clear the row?' : 'Clear every row?',
        detail: `${capitalize(allOf(rows.length, 'row'))} of this search will be removed.`,
        confirmLabel: rows.length === 1 ? 'Clear the row' : 'Clear all rows',
      });
      if (!ok) return;
    }
    clearRows();
    setShowErrors(false);
    setFormError(null);
  };

  useHotkeys([['mod+Enter', () => void search()]], []);

  return (
    <Stack gap="md">
      <PageHeader
        title="Search"
        description="Build a search from rows joined by AND, OR and NOT, then count what matches across structures, compounds, activities, assays, references and clinical compounds."
        actions={
          <SavedQueryActions
            current={() =>
              built.criteria ? { criteria: built.criteria } : { message: built.formError ?? 'There is nothing to save yet.' }
            }
            onLoad={async (loaded) => {
              if (await load(loaded)) {
                setShowErrors(false);
                setFormError(null);
              }
            }}
            onError={setPageError}
          />
        }
      />
      {pageError && (
        <Alert
          color="red"
          variant="light"
          role="alert"
          title="That did not work"
          withCloseButton
          onClose={() => setPageError(null)}
          closeButtonLabel="Dismiss"
          data-testid="page-error"
        >
          {pageError}
        </Alert>
      )}
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <SearchBuilder built={built} showErrors={showErrors} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Box pos={{ base: 'static', lg: 'sticky' }} top={76}>
            <Stack gap="sm">
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="md"
                  flex={1}
                  leftSection={<IconSearch size={18} />}
                  onClick={() => void search()}
                  loading={status === 'running'}
                  disabled={rows.length === 0}
                  data-testid="run-search"
                >
                  Search
                </Button>
                <Button
                  size="md"
                  variant="default"
                  leftSection={<IconX size={16} />}
                  onClick={() => void clearAll()}
                  disabled={rows.length === 0}
                >
                  Clear all
                </Button>
              </Group>
              <Text size="xs" c="dimmed">
                <Kbd size="xs">Ctrl</Kbd> + <Kbd size="xs">Enter</Kbd> searches from any field; <Kbd size="xs">Alt</Kbd> +{' '}
                <Kbd size="xs">↑</Kbd>/<Kbd size="xs">↓</Kbd> moves a row.
              </Text>
              {showErrors && formError && (
                <Alert color="red" variant="light" role="alert" data-testid="form-error">
                  {formError}
                </Alert>
              )}
              <CountsPanel onCancel={runner.cancel} />
            </Stack>
          </Box>
        </Grid.Col>
      </Grid>
      {confirmDialog}
    </Stack>
  );
}
