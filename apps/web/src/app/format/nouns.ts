import type { NounForms } from './plural.ts';

/** Nouns of the knowledge base whose plural is not the singular plus "s". */
export const ACTIVITY: NounForms = { one: 'activity', other: 'activities' };
export const SEARCH: NounForms = { one: 'search', other: 'searches' };
