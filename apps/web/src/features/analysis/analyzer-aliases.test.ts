import { ANALYZER_TABS } from '@kb/contracts/analyzers';
import { describe, expect, it } from 'vitest';
import { analyzerTabOf } from './analyzer-aliases.ts';

describe('the analyzer an address names', () => {
  it('answers each real tab as itself', () => {
    for (const tab of ANALYZER_TABS) expect(analyzerTabOf(tab)).toBe(tab);
  });

  it('reads singular, plural, legacy and differently written names as the real tab', () => {
    expect(analyzerTabOf('activitytab')).toBe('activitiestab');
    expect(analyzerTabOf('activities')).toBe('activitiestab');
    expect(analyzerTabOf('Activity-Tab')).toBe('activitiestab');
    expect(analyzerTabOf('activity_tab')).toBe('activitiestab');
    expect(analyzerTabOf('structures')).toBe('structuretab');
    expect(analyzerTabOf('StructuresTab')).toBe('structuretab');
    expect(analyzerTabOf('compounds')).toBe('structuretab');
  });

  it('knows no analyzer for other tabs and unknown names', () => {
    for (const tabid of ['assaytab', 'documentstab', 'developmentcompoundstab', 'nonsense', '', 'constructor', '__proto__', 'toString']) {
      expect(analyzerTabOf(tabid), tabid).toBeNull();
    }
  });
});
