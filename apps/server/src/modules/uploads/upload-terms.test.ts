import { describe, expect, it } from 'vitest';
import { checkTerm, splitTerms } from './upload-terms.ts';

describe('splitTerms', () => {
  it('splits values on | and on line breaks inside a cell, trims them and drops blanks', () => {
    expect(splitTerms(['  EGFR | JAK2 ', 'BRAF\nKDR', '', '   ', '|', 'MET\r\n'])).toEqual(['EGFR', 'JAK2', 'BRAF', 'KDR', 'MET']);
  });

  it('keeps the first occurrence of a repeated term, in upload order', () => {
    expect(splitTerms(['3', '1', '3|2', '1', ' 2 '])).toEqual(['3', '1', '2']);
  });

  it('treats differently written terms as different terms (the answer lists what was uploaded)', () => {
    expect(splitTerms(['EGFR', 'egfr'])).toEqual(['EGFR', 'egfr']);
  });
});

describe('checkTerm', () => {
  it('reports a non-number in a digits-only list as invalid, a header row included', () => {
    for (const listType of ['pubmed', 'refid', 'year', 'strid', 'entrez'] as const) {
      expect(checkTerm(listType, 'pubmed_id')).toEqual({ term: 'pubmed_id', invalid: 'not a number' });
      expect(checkTerm(listType, '12a')).toEqual({ term: '12a', invalid: 'not a number' });
      expect(checkTerm(listType, '-5')).toEqual({ term: '-5', invalid: 'not a number' });
      expect(checkTerm(listType, '1.5')).toEqual({ term: '1.5', invalid: 'not a number' });
    }
  });

  it('looks digits up without leading zeros', () => {
    expect(checkTerm('pubmed', '0012345')).toEqual({ term: '0012345', kind: 'pubmed', key: '12345' });
    expect(checkTerm('strid', '0')).toEqual({ term: '0', kind: 'strid', key: '0' });
  });

  it('keeps CAS numbers in a structure-id list apart, looked up as CAS', () => {
    expect(checkTerm('strid', '50-78-2')).toEqual({ term: '50-78-2', kind: 'cas', key: '50-78-2' });
    expect(checkTerm('strid', '1234567-12-3')).toEqual({ term: '1234567-12-3', kind: 'cas', key: '1234567-12-3' });
    // Not CAS-shaped: a malformed structure id.
    expect(checkTerm('strid', '50-78')).toEqual({ term: '50-78', invalid: 'not a number' });
  });

  it('accepts DOI, MeSH, patent and CAS entries as text', () => {
    expect(checkTerm('cas', 'not-a-cas')).toMatchObject({ kind: 'cas', key: 'NOT-A-CAS' });
    expect(checkTerm('mesh', 'd002289')).toMatchObject({ kind: 'mesh', key: 'D002289' });
    expect(checkTerm('doi', 'https://doi.org/10.5555/Demo.1')).toMatchObject({ kind: 'doi', key: '10.5555/demo.1' });
    expect(checkTerm('doi', 'doi: 10.1021/JM00001')).toMatchObject({ key: '10.1021/jm00001' });
    expect(checkTerm('patent', 'US 8,513,270 B2')).toMatchObject({ kind: 'patent', key: 'US8513270B2' });
    expect(checkTerm('patent', '--')).toEqual({ term: '--', invalid: 'not a patent number' });
  });

  it('checks the form of an InChIKey and upper-cases it', () => {
    expect(checkTerm('inchikey', 'InChIKey=bsynrymutxbxsq-uhfffaoysa-n')).toMatchObject({
      kind: 'inchikey',
      key: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N',
    });
    expect(checkTerm('inchikey', 'BSYNRYMUTXBXSQ')).toMatchObject({ invalid: expect.stringContaining('not an InChIKey') });
  });

  it('looks names up case-insensitively and codes in upper case', () => {
    expect(checkTerm('compoundname', 'Imatinib')).toMatchObject({ key: 'imatinib' });
    expect(checkTerm('target', 'EGFR')).toMatchObject({ key: 'egfr' });
    expect(checkTerm('uniprot', 'p00533')).toMatchObject({ key: 'P00533' });
    expect(checkTerm('pdb', '1m17')).toMatchObject({ key: '1M17' });
  });

  it('reports a term longer than 1,000 characters as invalid', () => {
    expect(checkTerm('compoundname', 'x'.repeat(1001))).toMatchObject({ invalid: 'longer than 1,000 characters' });
    expect(checkTerm('compoundname', 'x'.repeat(1000))).toMatchObject({ kind: 'compoundname' });
  });
});
