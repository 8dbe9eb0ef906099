import type { ReactNode } from 'react';
import type { PickedItem } from '../builder/row-drafts.ts';
import type { LookupSource } from './lookup-sources.ts';
import { LookupPicker } from './lookup-picker.tsx';

const keyOf = (item: PickedItem): string => `${typeof item.id}:${item.id}`;

/** A LookupPicker over picked items (companies, indications, sources, documents): ids with their labels. */
export function PickedLookupPicker({
  items,
  onChange,
  allowFree = false,
  ...props
}: {
  label: ReactNode;
  description?: ReactNode;
  placeholder?: string;
  source: LookupSource;
  items: readonly PickedItem[];
  onChange: (items: PickedItem[]) => void;
  /** Typed text the look-up does not know is kept as a name. */
  allowFree?: boolean;
  error?: ReactNode;
  rightOfLabel?: ReactNode;
  'data-testid'?: string;
}) {
  const add = (item: PickedItem) => {
    if (!items.some((existing) => keyOf(existing) === keyOf(item))) onChange([...items, item]);
  };
  return (
    <LookupPicker
      {...props}
      chips={items.map((item) => ({
        key: keyOf(item),
        label: item.label,
        title: item.detail ? `${item.label} — ${item.detail}` : item.label,
      }))}
      onPick={(result) => add({ id: result.id, label: result.label, detail: result.detail ?? null })}
      onFree={allowFree ? (text) => add({ id: text, label: text }) : undefined}
      onRemove={(key) => onChange(items.filter((item) => keyOf(item) !== key))}
      onClear={() => onChange([])}
    />
  );
}
