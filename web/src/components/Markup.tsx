import type { ReactNode } from 'react';
import { type Inline, safeHref } from './markupInline.ts';
import { type Block, parseMarkup } from './markupParser.ts';
import './markup.css';

export { safeHref };

function renderInline(nodes: Inline[], key: string): ReactNode[] {
  return nodes.map((node, index) => {
    const id = `${key}-${index}`;
    switch (node.type) {
      case 'text':
        return node.text;
      case 'break':
        return <br key={id} />;
      case 'code':
        return (
          <code key={id} className="markup-code">
            {node.text}
          </code>
        );
      case 'strong':
        return <strong key={id}>{renderInline(node.children, id)}</strong>;
      case 'em':
        return <em key={id}>{renderInline(node.children, id)}</em>;
      case 'link':
        return (
          <a key={id} href={node.href} target="_blank" rel="noopener noreferrer">
            {renderInline(node.children, id)}
          </a>
        );
    }
  });
}

function renderBlock(block: Block, key: string): ReactNode {
  switch (block.type) {
    case 'paragraph':
      return (
        <span key={key} className="markup-paragraph">
          {renderInline(block.children, key)}
        </span>
      );
    case 'codeBlock':
      return (
        <pre key={key} className="markup-pre" data-language={block.language || undefined}>
          <code>{block.text}</code>
        </pre>
      );
    case 'list': {
      const items = block.items.map((item, index) => <li key={`${key}-${index}`}>{renderInline(item, `${key}-${index}`)}</li>);
      return block.ordered ? (
        <ol key={key} className="markup-list" start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key} className="markup-list">
          {items}
        </ul>
      );
    }
  }
}

/**
 * Renders description markup (markupParser.ts) as React elements, never as HTML: text stays text,
 * so markup in the data cannot inject anything. A description that is one paragraph renders as
 * bare inline content, so it fits inside a `<p>` or a heading; paragraphs are spans shown as
 * blocks for the same reason.
 */
export function Markup({ text }: { text: string }) {
  const blocks = parseMarkup(text);
  const only = blocks[0];
  if (blocks.length === 1 && only?.type === 'paragraph') return <>{renderInline(only.children, 'm')}</>;
  return <span className="markup">{blocks.map((block, index) => renderBlock(block, `m${index}`))}</span>;
}
