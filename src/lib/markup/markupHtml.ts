import type { Inline } from './markupInline.ts';
import { type Block, parseMarkup } from './markupParser.ts';

// Description markup as HTML for email (the dashboard renders the same tree with React). The
// parser turns text into a tree with no HTML in it; this writes the tree out and escapes every
// piece of text and every attribute, so an event can never put markup of its own into a mail.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text (or an attribute value in double quotes) made safe for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const CODE_STYLE = 'font-family:ui-monospace,Menlo,Consolas,monospace;font-size:0.95em;';

function inlineHtml(nodes: Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
          return escapeHtml(node.text);
        case 'break':
          return '<br>';
        case 'code':
          return `<code style="${CODE_STYLE}">${escapeHtml(node.text)}</code>`;
        case 'strong':
          return `<strong>${inlineHtml(node.children)}</strong>`;
        case 'em':
          return `<em>${inlineHtml(node.children)}</em>`;
        case 'link':
          return `<a href="${escapeHtml(node.href)}">${inlineHtml(node.children)}</a>`;
      }
    })
    .join('');
}

function blockHtml(block: Block): string {
  switch (block.type) {
    case 'paragraph':
      return `<p style="margin:0 0 12px;">${inlineHtml(block.children)}</p>`;
    case 'codeBlock':
      return `<pre style="${CODE_STYLE}white-space:pre-wrap;margin:0 0 12px;"><code>${escapeHtml(block.text)}</code></pre>`;
    case 'list': {
      const items = block.items.map((item) => `<li>${inlineHtml(item)}</li>`).join('');
      const start = block.ordered && block.start !== 1 ? ` start="${block.start}"` : '';
      return block.ordered ? `<ol${start} style="margin:0 0 12px;">${items}</ol>` : `<ul style="margin:0 0 12px;">${items}</ul>`;
    }
  }
}

/** The description's markup as HTML blocks, every text escaped. */
export function markupToHtml(text: string): string {
  return parseMarkup(text).map(blockHtml).join('');
}
