/**
 * The one rule every text field of every call obeys, whatever its schema: no NUL character
 * (PostgreSQL cannot store it in text) and well-formed Unicode (a lone surrogate half has no UTF-8
 * form). The server applies it to every request's body, query and path before validation, so a bad
 * character is a 400 naming its field, never a database error; the web can apply it to what a user
 * pastes.
 */

export interface InvalidText {
  /** Where the text is, e.g. `body.rows.0.value` (object keys are checked too). */
  path: string;
  reason: 'nul' | 'surrogate';
}

/** Deepest nesting walked; JSON bodies are limited to 1 MiB, and nothing in the contracts nests past a few levels. */
const MAX_DEPTH = 64;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function textProblem(text: string): InvalidText['reason'] | null {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'surrogate';
  return null;
}

/** The first invalid text in a parsed value (iterative: a deeply nested body cannot overflow the stack). */
export function findInvalidText(value: unknown, root: string): InvalidText | { path: string; reason: 'depth' } | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      const reason = textProblem(item.value);
      if (reason) return { path: item.path, reason };
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    // An upload's body is its raw stream or bytes, not text: walking a stream would follow its
    // internals (sockets, parsers) into a cycle. Parsed JSON, query strings and path parameters
    // (objects of the router's own prototypes) are walked.
    if (isBinaryOrStream(item.value)) continue;
    if (item.depth >= MAX_DEPTH) return { path: item.path, reason: 'depth' };
    for (const [key, child] of Object.entries(item.value)) {
      const path = `${item.path}.${key}`;
      const reason = textProblem(key);
      if (reason) return { path, reason };
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return null;
}

function isBinaryOrStream(value: object): boolean {
  return ArrayBuffer.isView(value) || value instanceof ArrayBuffer || typeof (value as { pipe?: unknown }).pipe === 'function';
}

/** The message a caller sees for invalid text at `path`. */
export function invalidTextMessage(problem: { path: string; reason: InvalidText['reason'] | 'depth' }): string {
  switch (problem.reason) {
    case 'nul':
      return `Text may not contain the NUL character (\\u0000): remove it from ${problem.path}.`;
    case 'surrogate':
      return `Text must be valid Unicode: ${problem.path} holds half of a character (a lone surrogate).`;
    case 'depth':
      return `The request nests deeper than ${MAX_DEPTH} levels at ${problem.path}.`;
  }
}

/** "1 compound", "1,548 compounds": a count with its noun, for messages the server writes (en-US digits). */
export function countedNoun(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
