// npm test runs this file in one pass only: it checks the dashboard's own code, which no store changes (decision 230).
// The description markup parser (web/src/components/markupParser.ts): text in, tree out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseInline, safeHref } from '../../web/src/components/markupInline.ts';
import { type Block, parseMarkup } from '../../web/src/components/markupParser.ts';

const text = (value: string) => ({ type: 'text', text: value });
const paragraph = (...children: unknown[]) => ({ type: 'paragraph', children });

describe('description markup', () => {
  it('parses bold, italic, inline code and their combinations', () => {
    assert.deepEqual(parseInline('a **bold** b'), [text('a '), { type: 'strong', children: [text('bold')] }, text(' b')]);
    assert.deepEqual(parseInline('__bold__'), [{ type: 'strong', children: [text('bold')] }]);
    assert.deepEqual(parseInline('*it* and _it_'), [{ type: 'em', children: [text('it')] }, text(' and '), { type: 'em', children: [text('it')] }]);
    assert.deepEqual(parseInline('***both***'), [{ type: 'strong', children: [{ type: 'em', children: [text('both')] }] }]);
    assert.deepEqual(parseInline('*a **b** c*'), [{ type: 'em', children: [text('a '), { type: 'strong', children: [text('b')] }, text(' c')] }]);
    assert.deepEqual(parseInline('run `npm test` now'), [text('run '), { type: 'code', text: 'npm test' }, text(' now')]);
    assert.deepEqual(parseInline('``a ` b``'), [{ type: 'code', text: 'a ` b' }]);
    assert.deepEqual(parseInline('`**not bold**`'), [{ type: 'code', text: '**not bold**' }]);
  });

  it('leaves unmatched and intraword delimiters as text', () => {
    assert.deepEqual(parseInline('snake_case_name'), [text('snake_case_name')]);
    assert.deepEqual(parseInline('2 * 3 * 4'), [text('2 * 3 * 4')]);
    assert.deepEqual(parseInline('**open'), [text('**open')]);
    assert.deepEqual(parseInline('a `tick'), [text('a `tick')]);
    assert.deepEqual(parseInline('\\*not\\*'), [text('*not*')]);
    assert.deepEqual(parseInline('**'), [text('**')]);
  });

  it('links only http, https and mailto; others stay their source text', () => {
    assert.deepEqual(parseInline('see [the docs](https://example.com/a)'), [
      text('see '),
      { type: 'link', href: 'https://example.com/a', children: [text('the docs')] },
    ]);
    assert.deepEqual(parseInline('[mail](mailto:a@example.com)'), [{ type: 'link', href: 'mailto:a@example.com', children: [text('mail')] }]);
    assert.deepEqual(parseInline('[**bold** link](http://x.test)'), [
      { type: 'link', href: 'http://x.test/', children: [{ type: 'strong', children: [text('bold')] }, text(' link')] },
    ]);
    assert.deepEqual(parseInline('[x](javascript:alert(1))'), [text('[x](javascript:alert(1))')]);
    assert.deepEqual(parseInline('[x](javascript:alert)'), [text('[x](javascript:alert)')]);
    assert.deepEqual(parseInline('[x](data:text/html,hi)'), [text('[x](data:text/html,hi)')]);
    assert.deepEqual(parseInline('[x](/relative)'), [text('[x](/relative)')]);
    assert.deepEqual(parseInline('[just brackets]'), [text('[just brackets]')]);
    assert.equal(safeHref(' https://example.com '), 'https://example.com/');
    assert.equal(safeHref('vbscript:x'), null);
  });

  it('keeps raw HTML as text', () => {
    const html = '<script>alert(1)</script> <img src=x onerror=alert(1)> <b>hi</b>';
    assert.deepEqual(parseMarkup(html), [paragraph(text(html))]);
  });

  it('splits paragraphs on blank lines and turns single newlines into breaks', () => {
    assert.deepEqual(parseMarkup('one\ntwo\n\nthree'), [paragraph(text('one'), { type: 'break' }, text('two')), paragraph(text('three'))]);
    assert.deepEqual(parseMarkup('a\r\n\r\nb'), [paragraph(text('a')), paragraph(text('b'))]);
    assert.deepEqual(parseMarkup(''), []);
  });

  it('parses fenced code blocks verbatim, closed or not', () => {
    assert.deepEqual(parseMarkup('Error:\n```js\nconst a = **b**;\n  <b>x</b>\n```\nafter'), [
      paragraph(text('Error:')),
      { type: 'codeBlock', language: 'js', text: 'const a = **b**;\n  <b>x</b>' },
      paragraph(text('after')),
    ]);
    assert.deepEqual(parseMarkup('~~~\nopen to the end'), [{ type: 'codeBlock', language: '', text: 'open to the end' }]);
  });

  it('parses bullet and ordered lists with inline markup in items', () => {
    const blocks: Block[] = parseMarkup('Steps:\n- first **one**\n- second\n  continued\n\n- third\n\n1. a\n2. b\n\n3) c');
    assert.deepEqual(blocks, [
      paragraph(text('Steps:')),
      {
        type: 'list',
        ordered: false,
        start: 1,
        items: [[text('first '), { type: 'strong', children: [text('one')] }], [text('second'), { type: 'break' }, text('continued')], [text('third')]],
      },
      { type: 'list', ordered: true, start: 1, items: [[text('a')], [text('b')]] },
      { type: 'list', ordered: true, start: 3, items: [[text('c')]] },
    ]);
    assert.deepEqual(parseMarkup('* star\n+ plus'), [
      { type: 'list', ordered: false, start: 1, items: [[text('star')]] },
      { type: 'list', ordered: false, start: 1, items: [[text('plus')]] },
    ]);
    assert.deepEqual(parseMarkup('**bold** line\n-not a list'), [
      paragraph({ type: 'strong', children: [text('bold')] }, text(' line'), { type: 'break' }, text('-not a list')),
    ]);
  });

  it('stays fast on long unclosed markup', () => {
    const started = performance.now();
    parseMarkup(`${'*a _b `c [d '.repeat(20_000)}`);
    parseMarkup('**'.repeat(50_000));
    parseMarkup('['.repeat(50_000) + '](https://x.test)');
    assert.ok(performance.now() - started < 2000, 'linear, not quadratic');
  });
});
