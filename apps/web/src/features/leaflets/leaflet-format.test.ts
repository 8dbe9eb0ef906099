import { describe, expect, it } from 'vitest';
import {
  citationLine,
  formatActivityValue,
  formatIsoDate,
  formatPotency,
  ligandEfficiencyText,
  parseCompoundRoute,
  parseReferenceRoute,
  referenceLeafletPath,
} from './leaflet-format.ts';
import { compareValues } from '../../app/ui/use-sorted-rows.ts';

describe('leaflet links', () => {
  it('reads /leaflet/{idType}/{id} and explains a link that names nothing', () => {
    expect(parseCompoundRoute('structure', '42')).toEqual({ ok: true, idType: 'structure', id: 42 });
    expect(parseCompoundRoute('dcm', '7')).toEqual({ ok: true, idType: 'dcm', id: 7 });
    expect(parseCompoundRoute('gene', '7')).toMatchObject({ ok: false, message: expect.stringMatching(/structure, compound or dcm/) });
    for (const id of ['0', '-1', '1.5', 'abc', '']) expect(parseCompoundRoute('structure', id).ok, id).toBe(false);
  });

  it('reads a reference link’s search: 0, none and nothing mean no search; one that is not a search id is left out and said', () => {
    const uuid = '6f1c2f0e-4a3b-4c4d-9e8f-0a1b2c3d4e5f';
    expect(parseReferenceRoute('0', '12')).toEqual({ ok: true, refId: 12, sessionId: null, sidProblem: null });
    expect(parseReferenceRoute('none', '12')).toEqual({ ok: true, refId: 12, sessionId: null, sidProblem: null });
    expect(parseReferenceRoute(null, '12')).toEqual({ ok: true, refId: 12, sessionId: null, sidProblem: null });
    expect(parseReferenceRoute(uuid, '12')).toEqual({ ok: true, refId: 12, sessionId: uuid, sidProblem: null });
    expect(parseReferenceRoute('x', '1')).toMatchObject({
      ok: true,
      refId: 1,
      sessionId: null,
      sidProblem: expect.stringMatching(/“x”\) is not a search id/),
    });
    expect(parseReferenceRoute(uuid, 'x')).toMatchObject({ ok: false, message: expect.stringMatching(/not a reference id/) });
  });

  it('offers the permanent links: the reference without a session, its search as ?sid=', () => {
    const uuid = '6f1c2f0e-4a3b-4c4d-9e8f-0a1b2c3d4e5f';
    expect(referenceLeafletPath(12)).toBe('/leaflet/reference/12');
    expect(referenceLeafletPath(12, uuid)).toBe(`/leaflet/reference/12?sid=${uuid}`);
  });
});

describe('leaflet values', () => {
  it('writes potencies below 1 µM in nM and censored values with their prefix', () => {
    expect(formatPotency(0.0123)).toBe('12.3 nM');
    expect(formatPotency(2.5)).toBe('2.5 µM');
    expect(formatPotency(null)).toBe('—');
    expect(formatActivityValue('>', 30000, 'nM')).toBe('> 30,000 nM');
    expect(formatActivityValue('=', 12.34, '%')).toBe('12.3 %');
    expect(formatActivityValue('=', 45, 'uM')).toBe('45 µM');
    expect(formatActivityValue('=', 12, '10^-6 cm/s')).toBe('12 10⁻⁶ cm/s');
  });

  it('cites an article and a patent', () => {
    const base = { reference: null, volume: null, issue: null, start_page: null, end_page: null, patent_no: null };
    expect(
      citationLine({
        ...base,
        ref_type: 'journal',
        journal_patent_name: 'J Med Chem',
        year: 2012,
        volume: '55',
        issue: '3',
        start_page: '100',
        end_page: '112',
      }),
    ).toBe('J Med Chem (2012) 55(3):100-112');
    expect(citationLine({ ...base, ref_type: 'patent', journal_patent_name: 'USPTO', year: 2012, patent_no: 'US2012001234' })).toBe(
      'US2012001234 (USPTO, 2012)',
    );
    expect(citationLine({ ...base, ref_type: 'journal', journal_patent_name: null, year: null, reference: 'Stored citation' })).toBe(
      'Stored citation',
    );
  });

  it('reads a calendar date in UTC and sorts unknown values last both ways', () => {
    expect(formatIsoDate('2019-03-15')).toBe('15 Mar 2019');
    expect([3, null, 1].sort((a, b) => compareValues(a, b, 'asc'))).toEqual([1, 3, null]);
    expect([3, null, 1].sort((a, b) => compareValues(a, b, 'desc'))).toEqual([3, 1, null]);
    expect(['b10', 'b9'].sort((a, b) => compareValues(a, b, 'asc'))).toEqual(['b9', 'b10']);
  });
});

describe('ligandEfficiencyText', () => {
  it('lists the ligand efficiencies the source gives, in LE, LLE, BEI, SEI order, and nothing when there are none', () => {
    expect(ligandEfficiencyText({ le: 0.31, lle: 3.02, bei: 16.71, sei: null })).toBe('LE 0.31 · LLE 3.02 · BEI 16.71');
    expect(ligandEfficiencyText({ le: null, lle: null, bei: null, sei: null })).toBe('');
  });
});
