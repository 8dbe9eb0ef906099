import { formatCount } from './count-format.ts';

/** The two English forms of a counted noun: { one: 'activity', other: 'activities' }. */
export interface NounForms {
  one: string;
  other: string;
}

const rules = new Intl.PluralRules('en-US');

/**
 * English plurals of regular nouns: "activity" → "activities" (a consonant before the y), "search" →
 * "searches", "target" → "targets" (the heatmap once said "2 activitys"); pass the forms for others.
 */
function formsOf(noun: string | NounForms): NounForms {
  if (typeof noun !== 'string') return noun;
  if (/[^aeiou]y$/i.test(noun)) return { one: noun, other: `${noun.slice(0, -1)}ies` };
  if (/(s|x|z|ch|sh)$/i.test(noun)) return { one: noun, other: `${noun}es` };
  return { one: noun, other: `${noun}s` };
}

/** The form of a noun for a count, without the number: 1 → "row", 0 or 2 → "rows". */
export function pluralNoun(count: number, noun: string | NounForms): string {
  const forms = formsOf(noun);
  return rules.select(Number.isFinite(count) ? count : 0) === 'one' ? forms.one : forms.other;
}

/** A count and its noun: "1 row", "1,234 rows", "0 activities". */
export function countNoun(count: number, noun: string | NounForms): string {
  return `${formatCount(count)} ${pluralNoun(count, noun)}`;
}

/**
 * Text that names every item, for counts where "All 1 rows" would read wrong:
 * 1 → "the row", otherwise "all 12 rows".
 */
export function allOf(count: number, noun: string | NounForms): string {
  return count === 1 ? `the ${formsOf(noun).one}` : `all ${countNoun(count, noun)}`;
}

/**
 * The label of a "show more" button: "Show 1 more compound", "Show 5 more compounds" when the
 * next page holds the rest, "Show 24 more of 30 compounds" otherwise.
 */
export function showMoreLabel(next: number, remaining: number, noun: string | NounForms): string {
  if (next >= remaining) return `Show ${formatCount(remaining)} more ${pluralNoun(remaining, noun)}`;
  return `Show ${formatCount(next)} more of ${countNoun(remaining, noun)}`;
}

/** The text with its first letter upper-case, for a counted phrase that opens a sentence. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
