import { Alert, Box, Button, Group, Loader, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { IconAlertCircle } from '@tabler/icons-react';
import type { Ketcher } from 'ketcher-core';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { StructureDrawing, StructureText } from './structure-drawing.ts';
import {
  DRAWING_PROBLEM_MESSAGES,
  ketcherErrorMessage,
  placeFloatingPaste,
  placeStructureText,
  readDrawing,
  structureTextOf,
  withDeadline,
} from './structure-drawing.ts';
import { useKetcherCanvas } from './use-ketcher-canvas.ts';

export interface StructureEditorModalProps {
  opened: boolean;
  /**
   * The row's current query, loaded into the editor when its value is not blank. Its format also
   * says what to return: a SMARTS row gets `smarts` as well. Null: start from an empty canvas.
   */
  initial: StructureText | null;
  /** Cancel, Escape or the close button: nothing is returned. */
  onClose: () => void;
  /** "Use structure" with a drawing that can be searched; the caller applies it and closes the modal. */
  onApply: (result: StructureDrawing) => void;
}

/** Ketcher in a near-fullscreen modal: draw, paste or edit a query structure and hand it back to the row. */
export function StructureEditorModal({ opened, initial, onClose, onApply }: StructureEditorModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Structure editor"
      size="calc(100vw - 2rem)"
      centered
      // Mantine would close on every Escape, also one meant for a dialog of Ketcher's (atom
      // properties, Open…), losing the drawing; EditorBody closes on the Escapes Ketcher left alone.
      closeOnEscape={false}
      data-testid="structure-editor-modal"
    >
      {/* Mantine unmounts the body after closing, so every opening starts from the row's value. */}
      <EditorBody initial={initial} onClose={onClose} onApply={onApply} />
    </Modal>
  );
}

/** Generous: the first call waits for Indigo's 9 MB WASM to be downloaded and compiled. */
const INDIGO_DEADLINE_MS = 60_000;

type BodyProps = Omit<StructureEditorModalProps, 'opened'>;

function EditorBody({ initial: initialProp, onClose, onApply }: BodyProps) {
  // The row's query when the editor opened: Ketcher reads it once, at its initialisation.
  const [initial] = useState(initialProp);
  const { state, retry } = useKetcherCanvas();
  const ketcherRef = useRef<Ketcher | null>(null);
  const [ready, setReady] = useState(false);
  const [reading, setReading] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  // What was pasted last, said under the field ("Placed on the canvas…"); cleared by the next action.
  const [placed, setPlaced] = useState<string | null>(null);
  const [pasteField, setPasteField] = useState('');
  const [placing, setPlacing] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const handleInit = useCallback(
    (ketcher: Ketcher) => {
      // Ketcher calls onInit again once its (hidden) macromolecules editor is up: loading the
      // initial value then would overwrite what the user has drawn meanwhile.
      if (ketcherRef.current === ketcher) return;
      ketcherRef.current = ketcher;
      const value = initial?.value.trim() ?? '';
      if (value === '') {
        setReady(true);
        return;
      }
      withDeadline(ketcher.setMolecule(value), INDIGO_DEADLINE_MS).then(
        () => mounted.current && setReady(true),
        (error: unknown) => {
          if (!mounted.current) return;
          // The row keeps its value; the user may still draw from scratch.
          setMessage(
            `The current ${FORMAT_LABELS[initial?.format ?? 'smiles']} could not be loaded into the editor: ${ketcherErrorMessage(error)}`,
          );
          setReady(true);
        },
      );
    },
    [initial],
  );

  // Bubble phase: Ketcher's dialogs and menus stop the Escape that closes them before it gets here.
  useWindowEvent('keydown', (event) => {
    if (event.key === 'Escape' && !event.isComposing) onClose();
  });

  const handleError = useCallback((error: string) => {
    if (mounted.current) setMessage(error);
  }, []);

  /**
   * A pasted structure lands on the canvas placed, ready to use (Ctrl+V on the canvas adds it beside
   * a drawing; the paste field replaces the drawing). Errors of Indigo (text it cannot read) are shown.
   */
  const placing$ = useRef<Promise<boolean>>(Promise.resolve(true));
  const place = (raw: string, replace: boolean): Promise<boolean> => {
    // "Use structure" waits for a placement under way (Indigo reads the text in its worker).
    placing$.current = placeNow(raw, replace);
    return placing$.current;
  };
  const placeNow = async (raw: string, replace: boolean): Promise<boolean> => {
    const ketcher = ketcherRef.current;
    const text = structureTextOf(raw);
    if (!ketcher || text === null) return false;
    setPlacing(true);
    setMessage(null);
    setPlaced(null);
    try {
      const how = await withDeadline(placeStructureText(ketcher, text, replace), INDIGO_DEADLINE_MS);
      if (mounted.current) setPlaced(how === 'set' ? 'Placed on the canvas: ready to use.' : 'Added beside the drawing: ready to use.');
      return true;
    } catch (error) {
      if (mounted.current) setMessage(`The pasted text is not a structure the editor can read: ${ketcherErrorMessage(error)}`);
      return false;
    } finally {
      if (mounted.current) setPlacing(false);
    }
  };

  const apply = async () => {
    const ketcher = ketcherRef.current;
    if (!ketcher) return;
    setReading(true);
    setMessage(null);
    try {
      // Nothing pasted is lost: a structure still floating from Ketcher's own paste is dropped, and
      // text left in the paste field is placed when the canvas is empty.
      await placing$.current;
      placeFloatingPaste(ketcher);
      if (ketcher.editor.struct().isBlank() && structureTextOf(pasteField) !== null) {
        if (!(await place(pasteField, true))) return;
      }
      const drawing = await withDeadline(readDrawing(ketcher, initial?.format === 'smarts'), INDIGO_DEADLINE_MS);
      if (!mounted.current) return;
      if (typeof drawing === 'string') setMessage(DRAWING_PROBLEM_MESSAGES[drawing]);
      else onApply(drawing);
    } catch (error) {
      if (mounted.current) setMessage(`The drawing could not be converted: ${ketcherErrorMessage(error)}`);
    } finally {
      if (mounted.current) setReading(false);
    }
  };

  if (state.status === 'failed') {
    return (
      <Stack>
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={18} />}
          title="The structure editor could not be loaded"
          role="alert"
        >
          <Text size="sm">Try again in a moment; meanwhile you can type SMILES or paste a molfile into the row.</Text>
          <Text size="xs" c="dimmed" mt={4}>
            {state.message}
          </Text>
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button onClick={retry}>Try again</Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Draw a structure, or paste SMILES or a molfile: onto the canvas (Ctrl+V) or into the field beside it.
      </Text>
      <Group align="stretch" gap="sm" wrap="nowrap">
        <Box pos="relative" h="calc(100dvh - 15rem)" mih={480} style={{ flex: 1, minWidth: 0 }} data-testid="structure-editor-canvas">
          {state.status === 'ready' && (
            <state.Canvas onInit={handleInit} onError={handleError} onPasteText={(text) => void place(text, false)} />
          )}
          {!ready && (
            <Stack
              pos="absolute"
              inset={0}
              align="center"
              justify="center"
              bg="var(--mantine-color-body)"
              style={{ zIndex: 1 }}
              role="status"
            >
              <Loader />
              <Text size="sm">Loading the structure editor…</Text>
            </Stack>
          )}
        </Box>
        <PasteField
          value={pasteField}
          onChange={setPasteField}
          onPlace={(text) => void place(text, true)}
          disabled={!ready}
          placing={placing}
          placed={placed}
        />
      </Group>
      {message && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertCircle size={18} />}
          role="alert"
          withCloseButton
          onClose={() => setMessage(null)}
        >
          {message}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void apply()} disabled={!ready} loading={reading} data-testid="use-structure">
          Use structure
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * "Paste SMILES / molfile": a paste into the field goes straight onto the canvas in place of the
 * drawing; typed text goes there with "Place on canvas" (or Ctrl+Enter), or with "Use structure".
 */
function PasteField({
  value,
  onChange,
  onPlace,
  disabled,
  placing,
  placed,
}: {
  value: string;
  onChange: (value: string) => void;
  onPlace: (text: string) => void;
  disabled: boolean;
  placing: boolean;
  placed: string | null;
}) {
  return (
    <Stack gap="xs" w={240} style={{ flexShrink: 0 }} data-testid="structure-paste">
      <Textarea
        label="Paste SMILES / molfile"
        description="A paste here replaces the drawing."
        placeholder="e.g. c1ccncc1"
        autosize
        minRows={4}
        maxRows={14}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.currentTarget.value)}
        onPaste={(event) => {
          const text = event.clipboardData.getData('text/plain');
          if (text.trim() === '') return;
          // The whole field becomes the paste: a structure is one text, not text spliced into another.
          event.preventDefault();
          onChange(text);
          onPlace(text);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            onPlace(value);
          }
        }}
        data-testid="structure-paste-field"
      />
      <Button size="xs" variant="light" onClick={() => onPlace(value)} disabled={disabled || value.trim() === ''} loading={placing}>
        Place on canvas
      </Button>
      <Text size="xs" c="dimmed" role="status" aria-live="polite" data-testid="structure-paste-status">
        {placed ?? 'Ctrl+V on the canvas adds the structure beside the drawing.'}
      </Text>
    </Stack>
  );
}

const FORMAT_LABELS: Record<StructureText['format'], string> = { smiles: 'SMILES', smarts: 'SMARTS', molfile: 'molfile' };
