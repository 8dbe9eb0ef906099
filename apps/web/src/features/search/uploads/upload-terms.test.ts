import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '@kb/contracts/uploads';
import type { UploadValidateResponse } from '@kb/contracts/uploads';
import type { DraftOf } from '../builder/row-drafts.ts';
import { newDraft } from '../builder/row-drafts.ts';
import { applyUpload, bytesToBase64, checkUploadFile, mergedInUpload, uploadKindsFor } from './upload-terms.ts';

function response(partial: Partial<UploadValidateResponse> & Pick<UploadValidateResponse, 'listType'>): UploadValidateResponse {
  return { fileName: 'terms.txt', total: 0, valid: [], invalid: [], unidentified: [], ...partial };
}

describe('checking a file before it is sent', () => {
  it('accepts txt, csv and xlsx up to the size limit', () => {
    expect(checkUploadFile({ name: 'ids.TXT', size: 10 })).toBeNull();
    expect(checkUploadFile({ name: 'ids.csv', size: UPLOAD_MAX_BYTES })).toBeNull();
    expect(checkUploadFile({ name: 'ids.xlsx', size: 2000 })).toBeNull();
  });

  it('refuses other types, empty files and oversize files with a reason', () => {
    expect(checkUploadFile({ name: 'mol.sdf', size: 10 })).toBe('“mol.sdf” is not a .txt, .csv or .xlsx file.');
    expect(checkUploadFile({ name: 'README', size: 10 })).toBe('“README” is not a .txt, .csv or .xlsx file.');
    expect(checkUploadFile({ name: 'ids.txt', size: 0 })).toBe('“ids.txt” is empty.');
    expect(checkUploadFile({ name: 'ids.txt', size: UPLOAD_MAX_BYTES + 1 })).toMatch(/at most 2 MB/);
  });
});

describe('base64 of file bytes', () => {
  it('matches the platform encoder, also past one slice', () => {
    const bytes = new Uint8Array(70_000).map((_, index) => index % 251);
    expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });
});

describe('adding uploaded terms to a row', () => {
  it('adds structure ids and keeps the CAS numbers of the same file apart (spec §5)', () => {
    const row = { ...newDraft('structure'), strIds: ['5'] } as DraftOf<'structure'>;
    const next = applyUpload(
      row,
      response({
        listType: 'strid',
        valid: [
          { term: '5', ids: [5], label: null },
          { term: '42', ids: [42], label: null },
        ],
        casNumbers: ['50-78-2'],
        unidentified: ['999999'],
      }),
    ) as DraftOf<'structure'>;
    expect(next.strIds).toEqual(['5', '42']);
    expect(next.casNumbers).toEqual(['50-78-2']);
    expect(next.fileName).toBe('terms.txt');
  });

  it('turns uploaded gene symbols into target terms of the gene category', () => {
    const row = { ...newDraft('target'), field: 'gene' } as DraftOf<'target'>;
    expect(uploadKindsFor(row)).toEqual([{ listType: 'gene', label: 'Gene symbols' }]);
    const next = applyUpload(
      row,
      response({ listType: 'gene', valid: [{ term: 'EGFR', ids: [7, '8'], label: 'Epidermal growth factor receptor' }] }),
    ) as DraftOf<'target'>;
    expect(next.targets).toEqual([
      { label: 'EGFR', targetCategories: ['gene'], operator: '|', displayValue: 'Epidermal growth factor receptor', ids: [7, 8] },
    ]);
  });

  it('makes terms that resolve to the same targets one chip, keeping the first label and naming the merged terms', () => {
    const egfr = 'Epidermal growth factor receptor (Homo sapiens)';
    const upload = response({
      listType: 'target',
      valid: [
        { term: 'EGFR', ids: [7], label: egfr },
        { term: 'P00533', ids: [7], label: egfr },
        { term: 'PARP', ids: [9, 3], label: 'PARP1; PARP2' },
        { term: 'HER1', ids: [7], label: egfr },
        { term: 'parp family', ids: [3, 9], label: 'PARP1; PARP2' },
      ],
    });
    const next = applyUpload(newDraft('target'), upload) as DraftOf<'target'>;
    expect(next.targets.map((t) => [t.label, t.displayValue, t.ids])).toEqual([
      ['EGFR', `${egfr} · also P00533, HER1`, [7]],
      ['PARP', 'PARP1; PARP2 · also parp family', [9, 3]],
    ]);
    expect(mergedInUpload(upload)).toEqual([
      { term: 'P00533', into: 'EGFR' },
      { term: 'HER1', into: 'EGFR' },
      { term: 'parp family', into: 'PARP' },
    ]);
    // A chip already in the row takes the uploaded terms for the same target, too.
    const picked = {
      ...newDraft('target'),
      targets: [{ label: 'EGFR', targetCategories: ['gene'], operator: '|', displayValue: 'EGFR · picked', ids: [7] }],
    } as DraftOf<'target'>;
    const again = applyUpload(
      picked,
      response({ listType: 'uniprot', valid: [{ term: 'P00533', ids: [7], label: egfr }] }),
    ) as DraftOf<'target'>;
    expect(again.targets).toEqual([
      { label: 'EGFR', targetCategories: ['gene'], operator: '|', displayValue: 'EGFR · picked · also P00533', ids: [7] },
    ]);
  });

  it('resolves uploaded patent numbers to documents', () => {
    const next = applyUpload(
      newDraft('bibliography'),
      response({ listType: 'patent', valid: [{ term: 'US8000000', ids: [31], label: 'US 8,000,000 B2' }] }),
    ) as DraftOf<'bibliography'>;
    expect(next.documents).toEqual([{ id: 31, label: 'US 8,000,000 B2' }]);
  });

  it('replaces the blank activity line with one line per uploaded type', () => {
    const next = applyUpload(
      newDraft('activitytypes'),
      response({
        listType: 'activitytype',
        valid: [
          { term: 'ic50', ids: [], label: 'IC50' },
          { term: 'Ki', ids: [], label: null },
        ],
      }),
    ) as DraftOf<'activitytypes'>;
    expect(next.activities.map((a) => a.activityType)).toEqual(['IC50', 'Ki']);
  });

  it('adds nothing that is already in the row', () => {
    const row = { ...newDraft('company'), companies: [{ id: 4, label: 'Pfizer' }] } as DraftOf<'company'>;
    const next = applyUpload(
      row,
      response({
        listType: 'company',
        valid: [
          { term: 'pfizer', ids: [4], label: 'Pfizer' },
          { term: 'Acme', ids: [], label: null },
        ],
      }),
    ) as DraftOf<'company'>;
    expect(next.companies).toEqual([
      { id: 4, label: 'Pfizer' },
      { id: 'Acme', label: 'Acme' },
    ]);
  });
});
