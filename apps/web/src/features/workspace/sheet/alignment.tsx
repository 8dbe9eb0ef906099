import { TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { HIGHLIGHT_MAX_CHARS } from '@kb/contracts/chemistry';
import type { SheetSource } from '@kb/contracts/sheet';
import { sessionQuery } from '../../results/results-queries.ts';
import type { DrawingAlignment } from './sheet-cells.tsx';

/** SMARTS-only characters: a template with them is read as SMARTS, else as SMILES. */
const SMARTS_SIGNS = /[;&,~!$]|\[#|\*/;

/** The alignment a typed template asks for (empty: none). */
export function alignmentOf(text: string): DrawingAlignment | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  return { text: trimmed, kind: SMARTS_SIGNS.test(trimmed) ? 'smarts' : 'smiles' };
}

/**
 * How the sheet's drawings are laid out: like the search's substructure query when the sheet is a
 * search's rows, or like a core the user types, so a series reads in one orientation. A structure
 * the template does not match is drawn as usual.
 */
export function useDrawingAlignment(source: SheetSource) {
  const session = useQuery({ ...sessionQuery(source.kind === 'session' ? source.sessionid : ''), enabled: source.kind === 'session' });
  const query = session.data?.structureQuery.highlight ?? null;
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  // The search's query is the default until the user types a template of their own.
  useEffect(() => {
    if (!touched && query) setText(query.text);
  }, [query, touched]);
  // Typing redraws only after a pause, not at every key; one object per template, so the grid keeps its cells.
  const [settled] = useDebouncedValue(text, 600);
  const queryText = query?.text;
  const queryKind = query?.kind;
  const align = useMemo(
    () => (touched ? alignmentOf(settled) : queryText && queryKind ? { text: queryText, kind: queryKind } : null),
    [touched, settled, queryText, queryKind],
  );
  return {
    align,
    input: (
      <TextInput
        label="Align drawings to"
        description="A core as SMILES or SMARTS; empty: each drawn on its own"
        placeholder="e.g. c1ncnc2[nH]ccc12"
        value={text}
        maxLength={HIGHLIGHT_MAX_CHARS}
        onChange={(event) => {
          setTouched(true);
          setText(event.currentTarget.value);
        }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        data-testid="sheet-align"
      />
    ),
  };
}
