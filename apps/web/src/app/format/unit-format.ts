/**
 * Units as a chemist writes them: the knowledge base keeps what the source said ("uM",
 * "10^-6 cm/s", "ug.mL-1", ChEMBL's "10'-6M"), the screen shows "µM", "10⁻⁶ cm/s", "µg/mL",
 * "10⁻⁶ M". Display only: requests, filters and exports keep the stored text.
 */

/** The micro sign (U+00B5), as the rest of the app writes µM. */
const MICRO = '\u00b5';

const SUPERSCRIPT: Readonly<Record<string, string>> = {
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
  '-': '⁻',
  '+': '⁺',
};

function superscript(exponent: string): string {
  return [...exponent].map((c) => SUPERSCRIPT[c] ?? c).join('');
}

/** Unit words with a chemist's spelling ("u" for micro, litres as L, hours as h). */
const TOKENS: Readonly<Record<string, string>> = {
  uM: `${MICRO}M`,
  um: `${MICRO}m`,
  uL: `${MICRO}L`,
  ul: `${MICRO}L`,
  ug: `${MICRO}g`,
  umol: `${MICRO}mol`,
  uEq: `${MICRO}Eq`,
  mcg: `${MICRO}g`,
  microM: `${MICRO}M`,
  micromolar: `${MICRO}M`,
  microL: `${MICRO}L`,
  microl: `${MICRO}L`,
  microg: `${MICRO}g`,
  micromol: `${MICRO}mol`,
  ml: 'mL',
  dl: 'dL',
  nl: 'nL',
  pl: 'pL',
  l: 'L',
  hr: 'h',
  hrs: 'h',
  sec: 's',
};

function wordOf(token: string): string {
  return Object.hasOwn(TOKENS, token) ? TOKENS[token]! : token;
}

/** Splits "uL.min-1.(10⁶ cells)-1" into its factors: on dots (not decimal points) and spaces, never inside brackets. */
function factorsOf(text: string): string[] {
  const factors: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(') depth++;
    if (c === ')') depth = Math.max(0, depth - 1);
    // A dot separates factors ("min-1.kg-1"); between two digits it is a decimal point ("7.4").
    const dotBetweenWords = c === '.' && !(/\d/.test(text[i - 1] ?? '') && /\d/.test(text[i + 1] ?? ''));
    if (depth === 0 && (dotBetweenWords || c === ' ')) {
      if (current) factors.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  if (current) factors.push(current);
  return factors;
}

/** "mL-1" → { base: "mL", exponent: 1 }: a factor with a negative power; null for any other. */
function negativePower(factor: string): { base: string; exponent: number } | null {
  const match = /^(.*[A-Za-z\u00b5)])-(\d+)$/.exec(factor);
  return match ? { base: match[1]!, exponent: Number(match[2]) } : null;
}

/**
 * ChEMBL's product notation ("ug.mL-1", "mL.min-1.kg-1", "M-1.s-1") as a chemist writes it
 * ("µg/mL", "mL/min/kg", "M⁻¹ s⁻¹"); anything without a negative power is left as it is.
 */
function productNotation(text: string): string {
  const factors = factorsOf(text);
  const powers = factors.map(negativePower);
  if (!powers.some((p) => p !== null)) return text;
  const numerator = factors.filter((_, i) => powers[i] === null);
  const denominators = powers.filter((p) => p !== null);
  if (numerator.length === 0) return denominators.map((p) => `${p.base}${superscript(`-${p.exponent}`)}`).join(' ');
  const below = denominators.map((p) => (p.exponent === 1 ? p.base : `${p.base}${superscript(String(p.exponent))}`));
  return `${numerator.join('·')}/${below.join('/')}`;
}

/** A unit as a chemist writes it: "uM" → "µM", "10^-6 cm/s" → "10⁻⁶ cm/s", "ug.mL-1" → "µg/mL". Empty for none. */
export function formatUnit(unit: string | null | undefined): string {
  if (unit === null || unit === undefined) return '';
  let text = unit.trim().replace(/\u03bc/g, MICRO);
  if (text === '') return '';
  // Degrees Celsius: "degrees C", "deg C", "degC"; a temperature unit of "C" alone.
  if (text === 'C') return '°C';
  text = text.replace(/\bdeg(?:rees?)?\.?\s*C\b/gi, '°C');
  // Powers of ten: "10^-6", ChEMBL's "10'-6" → "10⁻⁶", and a space before the unit that follows.
  text = text.replace(/10(?:\^|')\s*([+-]?\d+)/g, (_, exponent: string) => `10${superscript(exponent)}`);
  text = text.replace(/([⁰¹²³⁴⁵⁶⁷⁸⁹])(?=[A-Za-z\u00b5(])/g, '$1 ');
  text = productNotation(text);
  // A dot between two unit words is a product: "uM.hr" → "µM·h".
  text = text.replace(/(?<=[A-Za-z\u00b5)])\.(?=[A-Za-z\u00b5(])/g, '·');
  return text.replace(/[A-Za-z]+/g, wordOf);
}

/**
 * Units inside a sentence ("@ 1 uM", "Inhibition of EGFR at 1 uM, 24 h"): only a unit right
 * after a number is rewritten, so no word of the text changes.
 */
export function formatUnitsInText(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  return text
    .replace(/\u03bc/g, MICRO)
    .replace(
      /(\d)(\s?)(uM|uL|ul|ug|umol|microM|micromolar|microL|microl|microg|micromol|ml|hrs|hr)\b/g,
      (_, digit: string, space: string, token: string) => `${digit}${space}${wordOf(token)}`,
    )
    .replace(/(\d)(\s?)deg(?:rees?)?\.?\s*C\b/gi, '$1$2°C');
}
