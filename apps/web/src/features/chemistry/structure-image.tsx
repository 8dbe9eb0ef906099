import { Center, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { chemistryEndpoints } from '@kb/contracts/chemistry';
import type { DepictionParams } from '@kb/contracts/chemistry';
import { downloadApi, errorMessage } from '../../app/api-client.ts';
import { endpointKey } from '../../app/query.ts';

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
  width: number;
  height: number;
  alt: string;
}

/**
 * An RDKit depiction from the server (cached there and here; the ETag lets the browser reuse
 * it). The SVG is shown through an <img> of a blob URL: it is fetched with the session's headers,
 * and an image can never run script, whatever the drawing holds.
 */
export function StructureImage({ strId, smiles, smarts, highlight, highlightKind = 'smarts', highlightMode = 'match', width, height, alt }: StructureImageProps) {
  const query: DepictionParams = {
    ...(strId !== undefined ? { strId } : smarts ? { smarts } : { smiles: smiles ?? '' }),
    ...(highlight ? { highlight } : {}),
    highlightKind,
    highlightMode,
    w: width,
    h: height,
  };
  const image = useQuery({
    queryKey: endpointKey(chemistryEndpoints.depiction, { query }),
    queryFn: ({ signal }) => downloadApi(chemistryEndpoints.depiction, { query }, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 10 * 60_000,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    // A new drawing is loading: show the skeleton, not the URL revoked below.
    if (!image.data) {
      setUrl(null);
      return undefined;
    }
    const objectUrl = URL.createObjectURL(image.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [image.data]);

  if (image.isError) {
    return (
      <Center w={width} h={height} bg="gray.0" title={errorMessage(image.error)}>
        <Text size="xs" c="dimmed" ta="center" px="xs">
          No drawing
        </Text>
      </Center>
    );
  }
  if (!url) return <Skeleton w={width} h={height} aria-label={`Drawing ${alt}`} />;
  return <img src={url} width={width} height={height} alt={alt} style={{ display: 'block' }} data-testid="structure-image" />;
}
