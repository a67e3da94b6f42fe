/**
 * The one rule for text that crosses into the application (bodies, path and query parameters,
 * hook headers, import rows): PostgreSQL cannot store NUL in text or jsonb, and a lone UTF-16
 * surrogate is not a character at all, so both are refused before anything reaches a query.
 * Nesting is bounded too: tags and metadata at DATA_DEPTH_LIMIT levels, a whole body at
 * BODY_DEPTH_LIMIT, so no recursive code further on (serialisation, validation) can run out of
 * stack. The walk is iterative for the same reason.
 */

/** Levels of objects/arrays a `tags` or `metadata` value may nest (the value itself is level 1). */
export const DATA_DEPTH_LIMIT = 64;
/** Levels of objects/arrays a whole JSON body may nest: room for tags and metadata in an import. */
const BODY_DEPTH_LIMIT = DATA_DEPTH_LIMIT + 8;

const DATA_KEYS = new Set(['tags', 'metadata']);

type Problem = { field: string; message: string };

/** Why `text` cannot be stored, or null. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) return 'must not contain lone UTF-16 surrogates';
  return null;
}

/**
 * JSON text decoded from UTF-8 holds NUL or a lone surrogate only as a \u escape (a raw control
 * character is invalid JSON; an invalid byte sequence decodes to U+FFFD). Text without such an
 * escape needs only the nesting check: the fast path for a 60 MB import.
 */
function jsonTextMayHoldBadText(text: string): boolean {
  return SUSPICIOUS_ESCAPE.test(text);
}
const SUSPICIOUS_ESCAPE = /\\u(0000|[dD][89a-fA-F])/;

/**
 * False when JSON text, parsed into a value sitting `depth` levels into its body, has too few
 * brackets for any value in it to break a nesting limit (a level needs a bracket of its own).
 * Brackets inside strings are counted too, which only errs on the side of walking.
 */
export function jsonTextMayNestTooDeep(text: string, depth = 1): boolean {
  const allowed = Math.min(DATA_DEPTH_LIMIT, BODY_DEPTH_LIMIT - depth + 1);
  let brackets = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++brackets > allowed) return true;
    }
  }
  return false;
}

/**
 * findBoundaryProblem for a value parsed from JSON `text`: text without a suspicious escape is
 * only walked for nesting, and not at all when it has too few brackets to nest too deep.
 */
export function findJsonBoundaryProblem(value: unknown, text: string, root: string, { depth = 1 } = {}): Problem | null {
  const checkText = jsonTextMayHoldBadText(text);
  if (!checkText && !jsonTextMayNestTooDeep(text, depth)) return null;
  return findBoundaryProblem(value, root, { checkText, depth });
}

interface Frame {
  value: object;
  key: string | number;
  parent: Frame | null;
  depth: number;
  /** Depth inside the nearest tags/metadata value; 0 outside one. */
  dataDepth: number;
}

/**
 * `body.projects[0].events[3].title` for a plain field. Inside tags or metadata the field is the
 * tags/metadata value itself and the rest is said after the message: `... (at a.b[2])`.
 */
function describe(root: string, frame: Frame | null, last: string | number | undefined, message: string, withInside = true): Problem {
  const chain: Frame[] = [];
  for (let f = frame; f && f.parent; f = f.parent) chain.unshift(f);
  const steps: Array<{ key: string | number; dataDepth: number }> = chain.map((f) => ({ key: f.key, dataDepth: f.dataDepth }));
  if (last !== undefined) steps.push({ key: last, dataDepth: frame && frame.dataDepth > 0 ? frame.dataDepth + 1 : 0 });
  const join = (parts: Array<string | number>, start: string) =>
    parts.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : key), start);
  const split = steps.findIndex((step) => step.dataDepth > 1);
  if (split < 0)
    return {
      field: join(
        steps.map((s) => s.key),
        root,
      ),
      message,
    };
  if (!withInside)
    return {
      field: join(
        steps.slice(0, split).map((s) => s.key),
        root,
      ),
      message,
    };
  const inside = join(
    steps.slice(split).map((s) => s.key),
    '',
  );
  return {
    field: join(
      steps.slice(0, split).map((s) => s.key),
      root,
    ),
    message: `${message} (at ${inside.replace(/^\./, '')})`,
  };
}

/**
 * The first problem in `value` (a parsed JSON body, params or query object), naming the field as
 * `root.a.b.3`, or null when every string and key is storable and nesting is within the limits.
 * `depth` is how deep `value` itself sits in its body (1: it is the body).
 */
export function findBoundaryProblem(value: unknown, root: string, { checkText = true, depth = 1 } = {}): Problem | null {
  if (typeof value === 'string') {
    const message = textProblem(value);
    return message ? { field: root, message } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const stack: Frame[] = [{ value, key: root, parent: null, depth, dataDepth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.depth > BODY_DEPTH_LIMIT) {
      return describe(root, frame, undefined, `is nested deeper than ${BODY_DEPTH_LIMIT} levels`, false);
    }
    if (frame.dataDepth > DATA_DEPTH_LIMIT) {
      return describe(root, frame, undefined, `is nested deeper than ${DATA_DEPTH_LIMIT} levels`, false);
    }
    const isArray = Array.isArray(frame.value);
    const entries = isArray ? (frame.value as unknown[]) : (frame.value as Record<string, unknown>);
    const keys = isArray ? null : Object.keys(entries);
    const count = keys ? keys.length : (entries as unknown[]).length;
    for (let i = 0; i < count; i++) {
      const key = keys ? (keys[i] as string) : i;
      if (keys && checkText) {
        const message = textProblem(key as string);
        if (message) return describe(root, frame, undefined, `has a key that ${message}`);
      }
      const child = (entries as Record<string | number, unknown>)[key];
      if (typeof child === 'string') {
        if (!checkText) continue;
        const message = textProblem(child);
        if (message) return describe(root, frame, key, message);
      } else if (typeof child === 'object' && child !== null) {
        const dataDepth = frame.dataDepth > 0 ? frame.dataDepth + 1 : keys && DATA_KEYS.has(key as string) ? 1 : 0;
        stack.push({ value: child, key, parent: frame, depth: frame.depth + 1, dataDepth });
      }
    }
  }
  return null;
}
