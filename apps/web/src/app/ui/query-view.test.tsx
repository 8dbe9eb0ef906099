import { MantineProvider } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { QueryView } from './query-view.tsx';

/** The parts of a TanStack query result QueryView reads: a settled answer, current or kept from before. */
function answered(rows: string[], isPlaceholderData: boolean): UseQueryResult<string[]> {
  return { isPending: false, isError: false, isPlaceholderData, data: rows } as unknown as UseQueryResult<string[]>;
}

function render(query: UseQueryResult<string[]>, keepsPrevious: boolean): string {
  return renderToStaticMarkup(
    <MantineProvider>
      <QueryView query={query} keepsPrevious={keepsPrevious} isEmpty={(rows) => rows.length === 0} empty="No rows match.">
        {(rows) => (
          <ul>
            {rows.map((row) => (
              <li key={row}>{row}</li>
            ))}
          </ul>
        )}
      </QueryView>
    </MantineProvider>,
  );
}

describe('QueryView with keepsPrevious', () => {
  it('dims the previous answer and marks it busy while the next one loads', () => {
    const html = render(answered(['aspirin'], true), true);
    expect(html).toContain('<li>aspirin</li>');
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain('data-previous="true"');
    expect(html).toMatch(/opacity:\s*0\.6/);
  });

  it('shows the current answer at full strength, not busy', () => {
    const html = render(answered(['aspirin'], false), true);
    expect(html).toContain('aria-busy="false"');
    expect(html).not.toContain('data-previous');
    expect(html).toMatch(/opacity:\s*1/);
  });

  it('dims a kept empty answer too (the filter that emptied it may be undone)', () => {
    const html = render(answered([], true), true);
    expect(html).toContain('No rows match.');
    expect(html).toContain('aria-busy="true"');
  });

  it('adds no wrapper to a query that does not keep its previous answer', () => {
    const html = render(answered(['aspirin'], false), false);
    expect(html).not.toContain('aria-busy');
    expect(html).toContain('<ul><li>aspirin</li></ul>');
  });
});
