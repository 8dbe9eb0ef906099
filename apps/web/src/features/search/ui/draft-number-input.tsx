import { NumberInput } from '@mantine/core';
import type { NumberInputProps } from '@mantine/core';
import { useEffect, useState } from 'react';
import { numberOrNull } from '../rows/editor-props.ts';

/**
 * A number field over a draft value (null while empty). It keeps what is being typed ("-", "0.")
 * while the draft holds the number it reads, and follows the draft when something else sets it
 * (a Rule of 5 preset, a loaded query).
 */
export function DraftNumberInput({
  value,
  onNumberChange,
  ...props
}: Omit<NumberInputProps, 'value' | 'onChange'> & { value: number | null; onNumberChange: (value: number | null) => void }) {
  const [raw, setRaw] = useState<string | number>(value ?? '');
  useEffect(() => {
    setRaw((current) => (numberOrNull(current) === value ? current : (value ?? '')));
  }, [value]);
  return (
    <NumberInput
      {...props}
      value={raw}
      onChange={(next) => {
        setRaw(next);
        onNumberChange(numberOrNull(next));
      }}
    />
  );
}
