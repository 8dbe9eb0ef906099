import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvText } from './csv.ts';

describe('CSV cells', () => {
  it('quotes a cell holding a comma, a quote or a line break, and only then', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Labs, Inc.')).toBe('"Labs, Inc."');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });

  it('writes nothing for a missing value, and numbers and booleans as they are', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(3.5)).toBe('3.5');
    expect(csvCell(true)).toBe('true');
  });

  it('neutralises text a spreadsheet would run as a formula (= + - @ tab CR)', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('=HYPERLINK("http://evil.test","x")')).toBe(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(csvCell('+cmd|/C calc!A0')).toBe("'+cmd|/C calc!A0");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1+1')).toBe("'\t=1+1");
    expect(csvCell('\r=1+1')).toBe(`"'\r=1+1"`);
    // Not at the start: no formula.
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('user@example.org')).toBe('user@example.org');
  });

  it('leaves text that is exactly a number alone (a credit change of "-5" stays -5)', () => {
    expect(csvCell('-5')).toBe('-5');
    expect(csvCell('+12')).toBe('+12');
    expect(csvCell('-0.25')).toBe('-0.25');
    expect(csvCell('-1e3')).toBe('-1e3');
    expect(csvCell('-5 ')).toBe("'-5 ");
    expect(csvCell('-')).toBe("'-");
  });
});

describe('CSV lines and files', () => {
  it('joins cells with commas and lines with CRLF, ending with a line end', () => {
    expect(csvLine(['a', 1, null, '=x'])).toBe("a,1,,'=x");
    expect(
      csvText([
        ['h1', 'h2'],
        ['a, b', -1],
      ]),
    ).toBe('h1,h2\r\n"a, b",-1\r\n');
    expect(csvText([])).toBe('');
  });
});
