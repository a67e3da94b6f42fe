import type { ReactNode } from 'react';

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The href to use for a link, or null when it is not an absolute http, https or mailto address. */
export function safeHref(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const trimmed = raw.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return null;
  }
  return SAFE_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
}

// `**bold**` and `[label](url)`; whichever starts first wins.
const TOKEN_SOURCE = /\*\*([\s\S]+?)\*\*|\[([^\]\n]+)\]\(([^)\s]+)\)/.source;

/**
 * Renders the description markup as React elements (never as HTML): text stays text, so markup
 * in the data cannot inject anything. A link whose address is not http, https or mailto is shown
 * as its original source text.
 */
export function renderMarkup(text: string, keyPrefix = 'm'): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  let index = 0;
  // A fresh regex per call: bold text is rendered recursively, and a shared one would lose its place.
  const token = new RegExp(TOKEN_SOURCE, 'g');
  for (let match = token.exec(text); match; match = token.exec(text)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const key = `${keyPrefix}-${index++}`;
    const [whole, bold, label, href] = match;
    if (bold !== undefined) {
      nodes.push(<strong key={key}>{renderMarkup(bold, key)}</strong>);
    } else {
      const safe = safeHref(href);
      nodes.push(
        safe ? (
          <a key={key} href={safe} target="_blank" rel="noopener noreferrer">
            {label}
          </a>
        ) : (
          whole
        ),
      );
    }
    last = match.index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

export function Markup({ text }: { text: string }) {
  return <>{renderMarkup(text)}</>;
}
