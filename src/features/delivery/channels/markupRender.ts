import { escapeHtml } from '../../../lib/markup/markupHtml.ts';
import type { Inline } from '../../../lib/markup/markupInline.ts';
import { type Block, parseMarkup } from '../../../lib/markup/markupParser.ts';

// The event's description markup rendered to each service's own markup. The parser's tree holds
// no HTML; every piece of text is escaped for the target, so an event cannot inject markup.

type Target = 'html' | 'telegram' | 'markdown' | 'plain';

const MARKDOWN_SPECIAL = /[\\`*_[\]()#+\-.!<>|~]/g;

function text(value: string, target: Target): string {
  if (target === 'html' || target === 'telegram') return escapeHtml(value);
  if (target === 'markdown') return value.replace(MARKDOWN_SPECIAL, (char) => `\\${char}`);
  return value;
}

function inline(nodes: Inline[], target: Target): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
          return text(node.text, target);
        case 'break':
          return target === 'html' ? '<br>' : '\n';
        case 'code':
          if (target === 'html' || target === 'telegram') return `<code>${escapeHtml(node.text)}</code>`;
          return target === 'markdown' ? `\`${node.text.replace(/`/g, "'")}\`` : node.text;
        case 'strong':
          if (target === 'html' || target === 'telegram') return `<b>${inline(node.children, target)}</b>`;
          return target === 'markdown' ? `**${inline(node.children, target)}**` : inline(node.children, target);
        case 'em':
          if (target === 'html' || target === 'telegram') return `<i>${inline(node.children, target)}</i>`;
          return target === 'markdown' ? `*${inline(node.children, target)}*` : inline(node.children, target);
        case 'link':
          if (target === 'html' || target === 'telegram') return `<a href="${escapeHtml(node.href)}">${inline(node.children, target)}</a>`;
          if (target === 'markdown') return `[${inline(node.children, target)}](${node.href.replace(/[()]/g, encodeURIComponent)})`;
          return `${inline(node.children, target)} (${node.href})`;
      }
    })
    .join('');
}

function block(node: Block, target: Target): string {
  switch (node.type) {
    case 'paragraph':
      return target === 'html' ? `<p>${inline(node.children, target)}</p>` : inline(node.children, target);
    case 'codeBlock':
      if (target === 'html' || target === 'telegram') return `<pre><code>${escapeHtml(node.text)}</code></pre>`;
      return target === 'markdown' ? `\`\`\`\n${node.text.replace(/```/g, "'''")}\n\`\`\`` : node.text;
    case 'list': {
      const items = node.items.map((item, index) => ({ marker: node.ordered ? `${node.start + index}.` : '•', body: inline(item, target) }));
      if (target === 'html') {
        const tag = node.ordered ? 'ol' : 'ul';
        return `<${tag}>${items.map((item) => `<li>${item.body}</li>`).join('')}</${tag}>`;
      }
      const marker = (m: string) => (target === 'markdown' ? (node.ordered ? m : '-') : m);
      return items.map((item) => `${marker(item.marker)} ${item.body}`).join('\n');
    }
  }
}

/** Matrix's `formatted_body`: HTML blocks, every text escaped. */
export const markupToMatrixHtml = (source: string) =>
  parseMarkup(source)
    .map((node) => block(node, 'html'))
    .join('');
/** Telegram's HTML subset (b, i, code, pre, a; newlines, no paragraphs or lists). */
export const markupToTelegramHtml = (source: string) =>
  parseMarkup(source)
    .map((node) => block(node, 'telegram'))
    .join('\n\n');
/** Markdown (ntfy, Gotify, Teams TextBlocks), every text escaped. */
export const markupToMarkdown = (source: string) =>
  parseMarkup(source)
    .map((node) => block(node, 'markdown'))
    .join('\n\n');
/** Plain text: the markup's words, links as `label (url)`. */
export const markupToPlain = (source: string) =>
  parseMarkup(source)
    .map((node) => block(node, 'plain'))
    .join('\n\n');
