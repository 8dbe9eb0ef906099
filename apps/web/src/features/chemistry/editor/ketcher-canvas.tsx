/**
 * The Ketcher editor itself. Imported only through `import()` (see use-ketcher-canvas.ts): this
 * module pulls in ketcher-react, its stylesheet and the Indigo worker, megabytes that most
 * searches never need.
 */
import 'ketcher-react/dist/index.css';
import type { Ketcher } from 'ketcher-core';
import { Editor } from 'ketcher-react';
import type { ButtonsConfig } from 'ketcher-react';
import { useEffect, useRef } from 'react';
import { StandaloneStructServiceProvider } from 'ketcher-standalone/dist/binaryWasm';

// One provider for the page: the binaryWasm entry starts Indigo's worker when it is imported, and
// every editor opened later shares that worker (and its compiled WASM).
const structServiceProvider = new StandaloneStructServiceProvider();

// A search query is one structure: tools for reactions, drawings and image recognition (which
// needs a server) would only produce something the search cannot use.
const HIDDEN: ButtonsConfig = Object.fromEntries(
  (
    [
      'reaction-plus',
      'arrows',
      'reaction-mapping-tools',
      'reaction-automap',
      'reaction-map',
      'reaction-unmap',
      'shape',
      'shape-ellipse',
      'shape-rectangle',
      'shape-line',
      'text',
      'recognize',
      'miew',
      'fullscreen',
      'create-monomer',
    ] as const
  ).map((name) => [name, { hidden: true }]),
);

export interface KetcherCanvasProps {
  /** Called once Ketcher is built; the caller keeps the instance to read and load structures. */
  onInit: (ketcher: Ketcher) => void;
  /** Ketcher's own errors (a paste it cannot read, a failed conversion). */
  onError: (message: string) => void;
  /** Text pasted onto the canvas (Ctrl+V): the caller places it as a structure. */
  onPasteText: (text: string) => void;
}

/** Typing in a field (Ketcher's Open dialog, an atom label): its paste is the field's own. */
function pastesIntoField(): boolean {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active.hasAttribute('data-cliparea')) return false;
  return active.tagName === 'TEXTAREA' || active.tagName === 'INPUT' || active.isContentEditable;
}

export default function KetcherCanvas({ onInit, onError, onPasteText }: KetcherCanvasProps) {
  const wrapper = useRef<HTMLDivElement>(null);
  const onPaste = useRef(onPasteText);
  onPaste.current = onPasteText;
  useEffect(() => {
    const element = wrapper.current;
    if (!element) return;
    // Capture phase, above Ketcher's own listener (on its root, below this wrapper): Ketcher would
    // read the clipboard and float the structure under the pointer until a click drops it.
    const listener = (event: ClipboardEvent) => {
      const text = event.clipboardData?.getData('text/plain') ?? '';
      if (event.defaultPrevented || pastesIntoField() || text.trim() === '') return;
      event.preventDefault();
      event.stopPropagation();
      onPaste.current(text);
    };
    element.addEventListener('paste', listener, { capture: true });
    return () => element.removeEventListener('paste', listener, { capture: true });
  }, []);
  return (
    <div ref={wrapper} style={{ height: '100%' }}>
      <Editor
        staticResourcesUrl=""
        structServiceProvider={structServiceProvider}
        errorHandler={onError}
        onInit={onInit}
        buttons={HIDDEN}
        disableMacromoleculesEditor
      />
    </div>
  );
}
