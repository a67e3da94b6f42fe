// The description markup, a CommonMark subset: text in, a tree out, no HTML anywhere. Pure (no
// DOM, no React) so the server's tests can run it directly.
//
// Blocks: paragraphs (blank lines separate them; a single newline is a line break, as people
// type descriptions), fenced code blocks (``` or ~~~), lists (-, *, + or 1. / 1)).
// Inline: **bold** / __bold__, *italic* / _italic_, `code`, [label](url) for http, https and
// mailto (any other link stays its source text), backslash escapes. Anything else, raw HTML
// included, is text.

import { type Inline, parseInline } from './markupInline.ts';

export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'codeBlock'; language: string; text: string }
  | { type: 'list'; ordered: boolean; start: number; items: Inline[][] };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const LIST_ITEM = /^ {0,3}(?:([-*+])|(\d{1,9})([.)]))(?:[ \t]+(.*))?$/;
const BLANK = /^\s*$/;

interface ListMarker {
  ordered: boolean;
  /** The bullet character or the ordered delimiter: a change of it starts a new list, as in CommonMark. */
  symbol: string;
  start: number;
  content: string;
}

function listMarker(line: string): ListMarker | null {
  const match = LIST_ITEM.exec(line);
  if (!match) return null;
  const [, bullet, digits, delimiter, content = ''] = match;
  // "-" alone or "**bold**" at the start of a line are not items: an item needs its space.
  if (content === '' && !/[ \t]$/.test(line) && line.trim().length > 1) return null;
  if (bullet) return { ordered: false, symbol: bullet, start: 1, content };
  return { ordered: true, symbol: delimiter ?? '.', start: Number(digits), content };
}

/** Parses a description into blocks. Linear in the text's length for any input. */
export function parseMarkup(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flushParagraph = () => {
    if (paragraph.length > 0) blocks.push({ type: 'paragraph', children: parseInline(paragraph.join('\n')) });
    paragraph = [];
  };

  for (let index = 0; index < lines.length;) {
    const line = lines[index] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      flushParagraph();
      const marker = fence[1] ?? '```';
      const body: string[] = [];
      index++;
      // An unclosed fence runs to the end of the text, as in CommonMark.
      while (index < lines.length && !isClosingFence(lines[index] ?? '', marker)) body.push(lines[index++] ?? '');
      index++;
      blocks.push({ type: 'codeBlock', language: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const marker = listMarker(line);
    if (marker) {
      flushParagraph();
      index = parseList(lines, index, marker, blocks);
      continue;
    }
    if (BLANK.test(line)) flushParagraph();
    else paragraph.push(line.replace(/^ {0,3}/, ''));
    index++;
  }
  flushParagraph();
  return blocks;
}

function isClosingFence(line: string, opener: string): boolean {
  const trimmed = line.trim();
  const char = opener[0] ?? '`';
  return trimmed.length >= opener.length && [...trimmed].every((c) => c === char) && /^ {0,3}\S/.test(line);
}

/** Reads one list from `index`; returns the index of the first line after it. */
function parseList(lines: string[], index: number, first: ListMarker, blocks: Block[]): number {
  const items: string[][] = [];
  let next = index;
  while (next < lines.length) {
    const line = lines[next] ?? '';
    const marker = listMarker(line);
    if (marker && marker.ordered === first.ordered && marker.symbol === first.symbol) {
      items.push([marker.content]);
      next++;
      continue;
    }
    const current = items[items.length - 1];
    if (BLANK.test(line)) {
      // A blank line keeps the list going only when another item of it follows.
      const after = listMarker(lines[next + 1] ?? '');
      if (after && after.ordered === first.ordered && after.symbol === first.symbol) {
        next++;
        continue;
      }
      break;
    }
    // An indented line (or a lazy one straight after an item) continues the item's text.
    if (current && !marker && !FENCE.test(line)) {
      current.push(line.trim());
      next++;
      continue;
    }
    break;
  }
  blocks.push({
    type: 'list',
    ordered: first.ordered,
    start: first.start,
    items: items.map((item) => parseInline(item.join('\n').trim())),
  });
  return next;
}
