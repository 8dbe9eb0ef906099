import { describe, expect, it } from 'vitest';
import { withRingPerception } from './smarts-rings.mjs';

describe('withRingPerception (smarts-rings.mjs)', () => {
  it('prefixes one top-level recursive atom when a recursive SMARTS and a ring primitive meet', () => {
    expect(withRingPerception('[$(N!@N),$([N;R0]=[N;R0])]')).toBe('[R,!R;$(N!@N),$([N;R0]=[N;R0])]');
    expect(withRingPerception('C-[$([#7;R]);$(n)]')).toBe('C-[R,!R;$([#7;R]);$(n)]');
    expect(withRingPerception('[13C]-[!$(C@C)]')).toBe('[13C]-[R,!R;!$(C@C)]');
  });

  it('leaves queries RDKit already handles, and ones it cannot safely prefix, as they are', () => {
    for (const smarts of ['[$(C=O)]', 'N!@N', '[R2]', '[Br,Rb]-[$(C=O)]', '[13$(C@C)]', 'c1ccccc1'])
      expect(withRingPerception(smarts)).toBe(smarts);
  });
});
