import type { ReactNode } from 'react';
import type { LookupSource } from './lookup-sources.ts';
import { LookupPicker } from './lookup-picker.tsx';

/** A LookupPicker over a list of texts (phases, mechanisms, categories, DOIs): the labels are the values. */
export function TextLookupPicker({
  values,
  onChange,
  allowFree = false,
  ...props
}: {
  label: ReactNode;
  description?: ReactNode;
  placeholder?: string;
  source: LookupSource;
  values: readonly string[];
  onChange: (values: string[]) => void;
  allowFree?: boolean;
  error?: ReactNode;
  rightOfLabel?: ReactNode;
  'data-testid'?: string;
}) {
  const add = (text: string) => {
    if (!values.includes(text)) onChange([...values, text]);
  };
  return (
    <LookupPicker
      {...props}
      chips={values.map((value) => ({ key: value, label: value }))}
      onPick={(item) => add(item.label)}
      onFree={allowFree ? add : undefined}
      onRemove={(key) => onChange(values.filter((value) => value !== key))}
      onClear={() => onChange([])}
    />
  );
}
