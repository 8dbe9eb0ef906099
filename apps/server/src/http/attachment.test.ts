import { describe, expect, it } from 'vitest';
import { attachmentHeader } from './attachment.ts';

/** The header as a browser parses it (RFC 8187 value): what name the user's file gets. */
function savedName(header: string): string {
  const star = /filename\*=UTF-8''([^;]+)/.exec(header)?.[1];
  if (!star) throw new Error(`no filename* in ${header}`);
  return decodeURIComponent(star);
}

describe('attachment header (RFC 6266 / 8187)', () => {
  it.each([
    ['activities.csv', 'activities.csv'],
    ['Résumé – IC50 (µM).xlsx', 'Résumé – IC50 (µM).xlsx'],
    ["O'Brien's set*.csv", "O'Brien's set*.csv"],
    ['../../../var/x.csv', 'x.csv'],
    ['C:\\Windows\\system32\\x.csv', 'x.csv'],
    ['100%.csv', '100%.csv'],
  ])('names %j as %j, with an ASCII fallback that has no quote, backslash or byte beyond ASCII', (name, expected) => {
    const header = attachmentHeader(name);
    expect(header.startsWith('attachment; filename="')).toBe(true);
    expect(savedName(header)).toBe(expected);
    const fallback = /filename="([^"]*)"/.exec(header)?.[1] ?? '';
    expect(fallback).toMatch(/^[\x20-\x7e]*$/);
    expect(fallback).not.toMatch(/[\\"%/]/);
    // attr-char only after UTF-8'': nothing a parser would stop at.
    expect(header.split("UTF-8''")[1]).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
  });

  it('never answers an empty name', () => {
    expect(savedName(attachmentHeader('///'))).toBe('download');
  });
});
