// eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/**
 * The `Content-Disposition` of a file answer (RFC 6266): `filename` is an ASCII fallback (no quote,
 * backslash, control or non-ASCII character survives; old clients read it) and `filename*` the exact
 * name in UTF-8 (RFC 8187), percent-encoding every byte outside its attr-char set — `encodeURIComponent`
 * alone leaves `'`, `(`, `)` and `*`, and a raw `'` ends the value early. A name with folders keeps only
 * its last part: stored names are plain (contracts datasets.ts), this is the last line of defence.
 */
export function attachmentHeader(fileName: string): string {
  // Control characters (a line break in a name stored before the rule) become '_' in both forms.
  const name = fileName.split(/[/\\]/).pop()?.replace(CONTROL_CHARACTERS, '_').trim() || 'download';
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
