import { Alert, Badge, Button, Group, Loader, Stack, Switch, Text } from '@mantine/core';
import { IconFilter, IconInfoCircle } from '@tabler/icons-react';
import { useParams, useSearchParams } from 'react-router';
import type { ReferenceLeaflet, ReferenceSearchNote } from '@kb/contracts/leaflets';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { formatCount } from '../../app/format/count-format.ts';
import { citationLine, parseReferenceRoute } from './leaflet-format.ts';
import { CopyLinkButton, InvalidLinkAlert, LeafletError, LeafletProblemPage, LeafletSkeleton } from '../../app/ui/leaflet-ui.tsx';
import { ReferenceActivitiesSection } from './reference-activities-table.tsx';
import { ReferenceCitationSection } from './reference-citation.tsx';
import { ReferenceCompoundsSection } from './reference-compounds-grid.tsx';
import { useReferenceLeaflet } from './use-leaflets.ts';

/** `?only=search` keeps the filter in the link, so a shared or reloaded leaflet shows the same rows. */
const ONLY_PARAM = 'only';
const ONLY_VALUE = 'search';
/** `?sid=` of the permanent link: the search the reference was opened from (used only by its owner). */
const SID_PARAM = 'sid';

const SEARCH_NOTES: Record<ReferenceSearchNote, string> = {
  'not-yours': 'Opened without your search: the search in this link is not one of yours, so the whole reference is shown.',
  unknown:
    'Opened without your search: the search in this link is no longer known (it may have been deleted), so the whole reference is shown.',
};

/** Why the search the link names is not used (another user's, unknown, not a search id): one quiet line. */
function SearchNote({ text }: { text: string }) {
  return (
    <Alert color="gray" variant="light" icon={<IconInfoCircle size={18} />} data-testid="search-note" py="xs">
      {text}
    </Alert>
  );
}

/**
 * The search the reference was opened from: how much of the reference it holds, and the switch
 * that keeps only that part. A search whose result sets are gone (expired, dropped) says so.
 */
function SearchBanner({
  leaflet,
  onlyInSearch,
  onChange,
  updating,
}: {
  leaflet: ReferenceLeaflet;
  onlyInSearch: boolean;
  onChange: (only: boolean) => void;
  updating: boolean;
}) {
  const session = leaflet.session;
  if (!session) return null;
  if (!session.ready) {
    return (
      <Alert
        color="yellow"
        variant="light"
        icon={<IconInfoCircle size={18} />}
        title="The search’s results are no longer kept"
        data-testid="search-banner"
      >
        This reference was opened from a search{session.summary ? ` (“${session.summary}”)` : ''} whose results are {session.status}. Run
        the search again to see which of these compounds and activities it finds.
      </Alert>
    );
  }
  return (
    <Alert color="teal" variant="light" icon={<IconFilter size={18} />} data-testid="search-banner">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm">
          From your search{session.summary ? ` “${session.summary}”` : ''}:{' '}
          <strong>
            {formatCount(leaflet.compounds.inSearch ?? 0)} of {formatCount(leaflet.compounds.total)}
          </strong>{' '}
          compounds and{' '}
          <strong>
            {formatCount(leaflet.activities.inSearch ?? 0)} of {formatCount(leaflet.activities.total)}
          </strong>{' '}
          activities of this reference are in it.
        </Text>
        <Group gap="xs">
          {updating && <Loader size="xs" aria-label="Updating" />}
          <Switch
            checked={onlyInSearch}
            onChange={(event) => onChange(event.currentTarget.checked)}
            label="Only in this search"
            data-testid="in-search-switch"
          />
        </Group>
      </Group>
    </Alert>
  );
}

function ReferenceLeafletView({
  leaflet,
  onlyInSearch,
  onChange,
  updating,
  sidProblem,
}: {
  leaflet: ReferenceLeaflet;
  onlyInSearch: boolean;
  onChange: (only: boolean) => void;
  updating: boolean;
  sidProblem: string | null;
}) {
  const note = sidProblem ?? (leaflet.searchNote ? SEARCH_NOTES[leaflet.searchNote] : null);
  const doc = leaflet.document;
  const title = doc.title ?? doc.reference ?? `Reference ${doc.ref_id}`;
  return (
    <Stack gap="md" data-testid="reference-leaflet">
      <PageHeader
        title={title}
        description={`Reference leaflet · ${citationLine(doc) || `reference ${doc.ref_id}`}`}
        actions={
          <Group gap={6}>
            <Badge size="lg" variant="light" color={doc.ref_type === 'patent' ? 'orange' : 'blue'}>
              {doc.ref_type}
            </Badge>
            {doc.year && (
              <Badge size="lg" variant="light" color="gray">
                {doc.year}
              </Badge>
            )}
            <CopyLinkButton path={leaflet.link} />
          </Group>
        }
      />
      {note && <SearchNote text={note} />}
      <SearchBanner leaflet={leaflet} onlyInSearch={onlyInSearch} onChange={onChange} updating={updating} />
      <ReferenceCitationSection leaflet={leaflet} />
      <ReferenceCompoundsSection compounds={leaflet.compounds} inSearchOnly={leaflet.inSearchOnly} />
      <ReferenceActivitiesSection activities={leaflet.activities} inSearchOnly={leaflet.inSearchOnly} />
    </Stack>
  );
}

/**
 * One reference and what it reports: `/leaflet/reference/{rid}` (the permanent link; `?sid=` the
 * search it was opened from) or the older `/leafletreference/{sid}/{rid}` (`sid` `0` for none).
 */
export function ReferenceLeafletPage() {
  const params = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const route = parseReferenceRoute(params.sid ?? searchParams.get(SID_PARAM), params.rid);
  const valid = route.ok ? route : null;
  // The filter needs a search to filter by; without one the parameter is ignored.
  const onlyInSearch = valid?.sessionId != null && searchParams.get(ONLY_PARAM) === ONLY_VALUE;
  const query = useReferenceLeaflet(valid, onlyInSearch);
  const setOnly = (only: boolean) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (only) next.set(ONLY_PARAM, ONLY_VALUE);
        else next.delete(ONLY_PARAM);
        return next;
      },
      { replace: true },
    );

  if (!route.ok) {
    return (
      <LeafletProblemPage title="Reference leaflet">
        <InvalidLinkAlert message={route.message} />
      </LeafletProblemPage>
    );
  }
  if (query.isPending) return <LeafletSkeleton />;
  if (query.isError) {
    return (
      <LeafletProblemPage title="Reference leaflet" description={`Reference ${route.refId}`}>
        <LeafletError error={query.error} onRetry={() => void query.refetch()} />
        {onlyInSearch && (
          // A shared "only in this search" link outlives the search's kept results.
          <Group>
            <Button variant="light" onClick={() => setOnly(false)}>
              Show the whole reference
            </Button>
          </Group>
        )}
      </LeafletProblemPage>
    );
  }
  return (
    <ReferenceLeafletView
      leaflet={query.data}
      onlyInSearch={onlyInSearch}
      onChange={setOnly}
      updating={query.isPlaceholderData}
      sidProblem={route.sidProblem}
    />
  );
}
