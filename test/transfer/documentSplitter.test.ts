// npm test runs this file in one pass only: pure functions, no database (decision 230).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DocumentSplitter } from '../../src/features/transfer/documentSplitter.ts';

/** The document put back together from what the splitter handed over, fed `size` characters at a time. */
function split(text: string, size: number) {
  const events: Array<[number, number, string]> = [];
  const splitter = new DocumentSplitter((project, index, element) => events.push([project, index, element]));
  for (let i = 0; i < text.length; i += size) splitter.write(text.slice(i, i + size));
  const outline = splitter.end();
  return { outline, events, malformed: splitter.malformed, repeatedEvents: splitter.repeatedEvents };
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const documents = [
  { projects: [] },
  { version: 1, projects: [{ name: 'a', events: [] }] },
  {
    projects: [
      { id: 'p"[{', name: 'a,b]', events: [{ title: 'x', tags: { 'a]': '}{' } }, 'y', 3, null, [1, [2]]], insights: [{ title: 't', value: 1 }] },
      { name: 'no events', categories: ['c', '[', '"'] },
      { events: [{ description: 'escaped \\" quote, ] bracket', metadata: { events: [1, 2] } }], name: 'events first' },
    ],
  },
  { other: { projects: [{ events: [1] }] }, projects: [{ name: 'n', nested: { events: [9] }, events: [{}] }] },
];

describe('DocumentSplitter', () => {
  for (const [n, document] of documents.entries()) {
    for (const size of [1, 3, 7, 1000]) {
      it(`splits document ${n} exactly, ${size} characters at a time`, () => {
        const text = JSON.stringify(document, null, size === 3 ? 2 : undefined);
        const { outline, events, malformed } = split(text, size);
        assert.equal(malformed, false);
        const expected = JSON.parse(text) as { projects: Array<{ events?: unknown[] }> };
        const rebuilt = JSON.parse(outline) as typeof expected;
        for (const [project, index, element] of events) rebuilt.projects[project]!.events![index] = JSON.parse(element);
        assert.deepEqual(rebuilt, expected);
      });
    }
  }

  it('leaves a piece that does not parse, or says malformed, for text that is not JSON', () => {
    const bad = [
      '{"projects":[{"events":[1,]}]}',
      '{"projects":[{"events":[,1]}]}',
      '{"projects":[{"events":[{]}]}',
      '{"projects":[{"events":[1 2]}]}',
      '{"projects":[{"events":[1}]}',
      '{"projects":[{"events":["x]}',
      '{"projects":[{"events":[1]}]} x',
      '{"projects":[{"events":[{"a":1}',
    ];
    for (const text of bad) {
      const { outline, events, malformed } = split(text, 4);
      const allParse = parses(outline) && events.every(([, , element]) => parses(element));
      assert.ok(malformed || !allParse, text);
    }
  });

  it('notices a project with two events fields', () => {
    assert.equal(split('{"projects":[{"events":[1]},{"events":[1],"events":[2]}]}', 5).repeatedEvents, 1);
  });
});
