import { Modal } from '@mantine/core';
import type { ModalProps } from '@mantine/core';
import { createContext, useContext, useEffect, useState } from 'react';
import type { Dispatch, ReactNode, SetStateAction } from 'react';

/*
 * Mantine closes every open modal and drawer on one Escape (each listens on the window). A dialog
 * opened from the user drawer, or a confirmation opened from such a dialog, must close alone: each
 * holder counts its open child dialogs and ignores Escape while one is open.
 */

const OpenChildren = createContext<Dispatch<SetStateAction<number>> | null>(null);

/** For a dialog or drawer that opens other dialogs: whether one is open, and the wrapper for its content. */
export function useDialogHost(): { childOpen: boolean; wrap: (content: ReactNode) => ReactNode } {
  const [count, setCount] = useState(0);
  return { childOpen: count > 0, wrap: (content) => <OpenChildren.Provider value={setCount}>{content}</OpenChildren.Provider> };
}

/** Tells the holding dialog (if any) that this one is open. */
function useReportOpen(opened: boolean): void {
  const report = useContext(OpenChildren);
  useEffect(() => {
    if (!opened || !report) return;
    report((n) => n + 1);
    return () => report((n) => n - 1);
  }, [opened, report]);
}

/** A Modal that may sit inside the drawer or another dialog: Escape closes the topmost one only. */
export function NestedModal({ children, closeOnEscape = true, ...props }: ModalProps) {
  useReportOpen(props.opened);
  const host = useDialogHost();
  return (
    <Modal {...props} closeOnEscape={closeOnEscape && !host.childOpen}>
      {host.wrap(children)}
    </Modal>
  );
}
