// Inline description markup (the spans inside a block): **bold** / __bold__, *italic* /
// _italic_, `code`, [label](url) for http, https and mailto, backslash escapes and line breaks.
// Pure, like the block parser in markupParser.ts that calls it.

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'break' };

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The href to use for a link, or null when it is not an absolute http, https or mailto address. */
export function safeHref(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    return null;
  }
  return SAFE_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
}

const PUNCTUATION = /[!-/:-@[-`{-~]/;
/** Deeper nesting stays text: a pathological description must not nest the page thousands deep. */
const MAX_DEPTH = 12;

interface Scan {
  text: string;
  /** Per delimiter, a position from which no closer exists: keeps parsing linear on unclosed markup. */
  noCloserFrom: Map<string, number>;
}

/** Parses inline markup; `**` and `__` bold, `*` and `_` italic, code, links, escapes and breaks. */
export function parseInline(text: string): Inline[] {
  return inlineRange({ text, noCloserFrom: new Map() }, 0, text.length, 0);
}

function inlineRange(scan: Scan, from: number, to: number, depth: number): Inline[] {
  const { text } = scan;
  const nodes: Inline[] = [];
  let buffer = '';
  const pushText = (value: string) => {
    buffer += value;
  };
  const flush = () => {
    if (buffer) nodes.push({ type: 'text', text: buffer });
    buffer = '';
  };

  let i = from;
  while (i < to) {
    const char = text[i] ?? '';
    if (char === '\\' && i + 1 < to && PUNCTUATION.test(text[i + 1] ?? '')) {
      pushText(text[i + 1] ?? '');
      i += 2;
      continue;
    }
    if (char === '\n') {
      flush();
      nodes.push({ type: 'break' });
      i++;
      continue;
    }
    if (char === '`') {
      const run = runLength(text, i, to, '`');
      const close = findCodeClose(scan, i + run, to, run);
      if (close < 0) {
        pushText('`'.repeat(run));
        i += run;
        continue;
      }
      flush();
      let code = text.slice(i + run, close).replace(/\n/g, ' ');
      if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '') code = code.slice(1, -1);
      nodes.push({ type: 'code', text: code });
      i = close + run;
      continue;
    }
    if (char === '[' && depth < MAX_DEPTH) {
      const link = readLink(scan, i, to, depth);
      if (link) {
        flush();
        if (link.node) nodes.push(link.node);
        else nodes.push({ type: 'text', text: text.slice(i, link.end) });
        i = link.end;
        continue;
      }
    }
    if ((char === '*' || char === '_') && depth < MAX_DEPTH) {
      const emphasis = readEmphasis(scan, i, to, depth);
      if (emphasis) {
        pushText(emphasis.prefix);
        flush();
        nodes.push(emphasis.node);
        i = emphasis.end;
        continue;
      }
      const run = runLength(text, i, to, char);
      pushText(char.repeat(run));
      i += run;
      continue;
    }
    pushText(char);
    i++;
  }
  flush();
  return nodes;
}

function runLength(text: string, at: number, to: number, char: string): number {
  let end = at;
  while (end < to && text[end] === char) end++;
  return end - at;
}

function findCodeClose(scan: Scan, from: number, to: number, run: number): number {
  const key = `code${run}:${to}`;
  const failed = scan.noCloserFrom.get(key);
  if (failed !== undefined && from >= failed) return -1;
  for (let i = from; i < to;) {
    if (scan.text[i] !== '`') {
      i++;
      continue;
    }
    const length = runLength(scan.text, i, to, '`');
    if (length === run) return i;
    i += length;
  }
  scan.noCloserFrom.set(key, from);
  return -1;
}

const isSpace = (char: string | undefined) => char === undefined || /\s/.test(char);
const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}]/u.test(char);

/** `*x*`, `**x**`, `***x***` and the `_` forms; `_` never opens or closes inside a word (snake_case). */
function readEmphasis(scan: Scan, at: number, to: number, depth: number): { prefix: string; node: Inline; end: number } | null {
  const { text } = scan;
  const char = text[at] ?? '*';
  const run = Math.min(runLength(text, at, to, char), 3);
  const after = text[at + run];
  if (isSpace(after) || (char === '_' && isWordChar(text[at - 1]))) return null;
  for (let size = run; size >= 1; size--) {
    const close = findEmphasisClose(scan, at + run, to, char, size);
    if (close < 0) continue;
    const inner = inlineRange(scan, at + run, close, depth + 1);
    const node: Inline = size === 3 ? { type: 'strong', children: [{ type: 'em', children: inner }] } : { type: size === 2 ? 'strong' : 'em', children: inner };
    // A shorter match leaves the extra delimiters of the opening run as text before it.
    return { prefix: char.repeat(run - size), node, end: close + size };
  }
  return null;
}

function findEmphasisClose(scan: Scan, from: number, to: number, char: string, size: number): number {
  const { text } = scan;
  const key = `${char}${size}:${to}`;
  const failed = scan.noCloserFrom.get(key);
  if (failed !== undefined && from >= failed) return -1;
  for (let i = from; i < to;) {
    const current = text[i];
    if (current === '\\') {
      i += 2;
      continue;
    }
    if (current === '`') {
      const run = runLength(text, i, to, '`');
      const close = findCodeClose(scan, i + run, to, run);
      i = close < 0 ? i + run : close + run;
      continue;
    }
    if (current !== char) {
      i++;
      continue;
    }
    const run = runLength(text, i, to, char);
    const closes = run >= size && i > from && !isSpace(text[i - 1]) && (char !== '_' || !isWordChar(text[i + run]));
    // A run of another size belongs to other emphasis (`*a **b** c*`): skip it whole.
    if (closes && (run === size || run === 3)) return i + run - size;
    i += run;
  }
  scan.noCloserFrom.set(key, from);
  return -1;
}

/** `[label](url)`: a link node when the address is safe, null node (source text) when it is not. */
function readLink(scan: Scan, at: number, to: number, depth: number): { node: Inline | null; end: number } | null {
  const { text } = scan;
  const key = `]:${to}`;
  const failed = scan.noCloserFrom.get(key);
  if (failed !== undefined && at >= failed) return null;
  const labelEnd = text.indexOf(']', at + 1);
  if (labelEnd < 0 || labelEnd >= to) {
    scan.noCloserFrom.set(key, at);
    return null;
  }
  if (text[labelEnd + 1] !== '(' || text.slice(at + 1, labelEnd).includes('\n') || labelEnd === at + 1) return null;
  const match = /^\(\s*([^\s()]+)\s*\)/.exec(text.slice(labelEnd + 1, Math.min(to, labelEnd + 2049)));
  if (!match) return null;
  const end = labelEnd + 1 + match[0].length;
  const href = safeHref(match[1]);
  if (!href) return { node: null, end };
  return { node: { type: 'link', href, children: inlineRange(scan, at + 1, labelEnd, depth + 1) }, end };
}
