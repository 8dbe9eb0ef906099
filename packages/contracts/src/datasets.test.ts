import { describe, expect, it } from 'vitest';
import { DATASET_FILE_NAME_MAX, DatasetFileNameSchema, datasetFileNameProblem } from './datasets.ts';

/** The one rule for dataset file names, which the upload form and the server's 400 share word for word. */
describe('dataset file names', () => {
  it.each([
    'structures-2026.csv',
    'activities.csv.gz',
    "Kinase set (µM) – O'Neil & Co.csv",
    'README',
    'con-figuration.csv',
    'COM10.csv',
    'می‌خواهم.csv', // Persian: the zero-width non-joiner belongs to the word
    '👨‍👩‍👧.csv', // an emoji sequence joined by zero-width joiners
    `${'a'.repeat(DATASET_FILE_NAME_MAX - 4)}.csv`,
  ])('accepts %j as it is', (name) => {
    expect(datasetFileNameProblem(name)).toBeNull();
    expect(DatasetFileNameSchema.parse(name)).toBe(name);
  });

  it.each<[string, RegExp]>([
    ['', /Give the file a name/],
    ['..', /is a path|start or end with a dot/],
    ['../../../var/x.csv', /is a path/],
    ['a\\b.csv', /is a path/],
    ['<script>.csv', /may not contain any of < > : " \| \? \*/],
    ['a:b.csv', /may not contain any of/],
    ['tab\there.csv', /control characters/],
    ['nul\u0000.csv', /control characters/],
    ['c1\u0085.csv', /control characters/],
    ['line\u2028sep.csv', /control characters/],
    ['invoice\u202Egpj.csv', /invisible formatting/],
    ['zero\u200Bwidth.csv', /invisible formatting/],
    ['\uFEFFbom.csv', /invisible formatting/],
    [' lead.csv', /start or end with a dot or a space/],
    ['trail.csv ', /start or end with a dot or a space/],
    ['.hidden', /start or end with a dot or a space/],
    ['CON', /reserves for a device/],
    ['con.csv', /reserves for a device/],
    ['Nul.tar.gz', /reserves for a device/],
    ['CON .csv', /reserves for a device/],
    ['com1.txt', /reserves for a device/],
    ['LPT9', /reserves for a device/],
    ['aux.', /start or end with a dot/],
    [`${'é'.repeat(DATASET_FILE_NAME_MAX - 3)}.csv`, /at most 200 characters/],
  ])('refuses %j, saying why', (name, why) => {
    expect(datasetFileNameProblem(name)).toMatch(why);
    const parsed = DatasetFileNameSchema.safeParse(name);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(datasetFileNameProblem(name));
  });
});
