import { describe, expect, it } from 'vitest';
import { ancestorsOf, pathLabel } from './tree-api.ts';

const node = { id: '3', parentid: '2', label: 'EGFR', ids: ['3'], count: 12, hasChildren: false };

describe('tree search hits', () => {
  it('expands every ancestor of a hit, whether or not the path ends with the node', () => {
    expect(
      ancestorsOf({
        node,
        path: [
          { id: '1', label: 'Enzymes' },
          { id: '2', label: 'Kinases' },
        ],
      }),
    ).toEqual(['1', '2']);
    expect(
      ancestorsOf({
        node,
        path: [
          { id: '1', label: 'Enzymes' },
          { id: '2', label: 'Kinases' },
          { id: '3', label: 'EGFR' },
        ],
      }),
    ).toEqual(['1', '2']);
  });

  it('shows the path above the node', () => {
    expect(
      pathLabel({
        node,
        path: [
          { id: '1', label: 'Enzymes' },
          { id: '2', label: 'Kinases' },
          { id: '3', label: 'EGFR' },
        ],
      }),
    ).toBe('Enzymes › Kinases');
    expect(pathLabel({ node, path: [] })).toBe('');
  });
});
