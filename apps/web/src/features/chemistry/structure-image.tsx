import { Center, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { chemistryEndpoints } from '@kb/contracts/chemistry';
import type { DepictionParams } from '@kb/contracts/chemistry';
import { downloadApi, errorMessage } from '../../app/api-client.ts';
import { endpointKey, queryClient } from '../../app/query.ts';
import { queuedDepiction } from './depiction-queue.ts';

const DEPICTION_KEY = endpointKey(chemistryEndpoints.depiction);

/**
 * A cached drawing is held as a blob URL; it is freed when its query leaves the cache (unused for
 * gcTime, or the cache cleared at log-out). Keeping the URL in the cache, not in component state,
 * spares every image an effect and a second render: hundreds of drawings arriving together (the
 * SAR cliffs) once chained enough renders to hit React's update-depth limit.
 */
queryClient.getQueryCache().subscribe((event) => {
  if (event.type !== 'removed') return;
  const key = event.query.queryKey;
  if (key[0] === DEPICTION_KEY[0] && key[1] === DEPICTION_KEY[1] && typeof event.query.state.data === 'string')
    URL.revokeObjectURL(event.query.state.data);
});

export interface StructureImageProps {
  /** A stored structure, or a SMILES / SMARTS to draw. */
  strId?: number;
  smiles?: string;
  smarts?: string;
  /** Substructure to highlight in the drawing. */
  highlight?: string | null;
  highlightKind?: 'smiles' | 'smarts';
  /** match (default): colour the highlight's match; rest: colour everything outside it (what differs from it). */
  highlightMode?: 'match' | 'rest';
  /** A core or query to lay the drawing out like (a series in one orientation); it does not colour anything. */
  align?: string | null;
  alignKind?: 'smiles' | 'smarts';
  width: number;
  height: number;
  alt: string;
}

/**
 * An RDKit depiction from the server (cached there and here; the ETag lets the browser reuse
 * it). The SVG is shown through an <img> of a blob URL: it is fetched with the session's headers,
 * and an image can never run script, whatever the drawing holds.
 */
export function StructureImage({
  strId,
  smiles,
  smarts,
  highlight,
  highlightKind = 'smarts',
  highlightMode = 'match',
  align,
  alignKind = 'smarts',
  width,
  height,
  alt,
}: StructureImageProps) {
  const query: DepictionParams = {
    ...(strId !== undefined ? { strId } : smarts ? { smarts } : { smiles: smiles ?? '' }),
    ...(highlight ? { highlight } : {}),
    highlightKind,
    highlightMode,
    ...(align ? { align } : {}),
    alignKind,
    w: width,
    h: height,
  };
  const near = useNearScreen();
  const image = useQuery({
    queryKey: endpointKey(chemistryEndpoints.depiction, { query }),
    // Asked for once near the screen, in the bounded line of depiction-queue.ts (no 429 for a long list).
    queryFn: async ({ signal }) =>
      URL.createObjectURL(await queuedDepiction(() => downloadApi(chemistryEndpoints.depiction, { query }, { signal }), signal)),
    enabled: near.seen,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 10 * 60_000,
  });
  const url = image.data;

  if (image.isError) {
    return (
      <Center w={width} h={height} bg="gray.0" title={errorMessage(image.error)}>
        <Text size="xs" c="dimmed" ta="center" px="xs">
          No drawing
        </Text>
      </Center>
    );
  }
  if (!url) return <Skeleton ref={near.ref} w={width} h={height} aria-label={`Drawing ${alt}`} />;
  return <img src={url} width={width} height={height} alt={alt} style={{ display: 'block' }} data-testid="structure-image" />;
}

/**
 * Whether the placeholder has come within a screen of the viewport (then it stays so): a list of
 * hundreds of drawings asks only for those the reader reaches.
 */
function useNearScreen(): { ref: (element: HTMLDivElement | null) => void; seen: boolean } {
  const [seen, setSeen] = useState(typeof IntersectionObserver === 'undefined');
  const observer = useRef<IntersectionObserver | null>(null);
  useEffect(() => () => observer.current?.disconnect(), []);
  const ref = (element: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element || seen) return;
    observer.current = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.current?.disconnect();
          setSeen(true);
        }
      },
      { rootMargin: '100% 0px' },
    );
    observer.current.observe(element);
  };
  return { ref, seen };
}
