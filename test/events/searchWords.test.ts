// npm test runs this file in one pass only: pure functions, no database (decision 230).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockPatterns, blockWords } from '../../src/features/events/searchWords.ts';

// The words a search block holds and the patterns search asks it for (decision 167): a block
// must answer yes for every search text that one of its events' texts contains.
describe('search words', () => {
  it('keeps the distinct words of the documents, split at ASCII punctuation, spaces and controls', () => {
    assert.equal(
      blockWords('Order #12345 placed by Zoë\x1f**maria** paid\x1f{"plan":"pro"}\norder placed by maria_2'),
      'Order 12345 placed by Zoë maria paid plan pro order 2',
    );
    assert.equal(blockWords(''), '');
  });

  it('asks for each word of the search text long enough for the trigram index, longest first', () => {
    assert.deepEqual(blockPatterns('d by Zoë'), ['%Zoë%']);
    assert.deepEqual(blockPatterns('ORDER #12345  placed'), ['%placed%', '%ORDER%', '%12345%']);
    assert.deepEqual(blockPatterns('50%_off\\now'), ['%off%', '%now%']);
    assert.deepEqual(blockPatterns('a b c'), []);
    assert.equal(blockPatterns('one two three four five six seven eight nine ten').length, 8);
  });

  it('answers yes for every part of a document that search could match', () => {
    const documents = ['Payment of $4,200 received from maria\x1fuser **maria**\x1f{"region":"eu-west-1"}', 'Straße über'];
    const words = ` ${blockWords(documents.join('\n'))} `.toLowerCase();
    for (const document of documents) {
      for (let start = 0; start < document.length; start++) {
        for (let end = start + 1; end <= Math.min(document.length, start + 12); end++) {
          for (const pattern of blockPatterns(document.slice(start, end))) {
            assert.ok(words.includes(pattern.slice(1, -1).toLowerCase()), `${document.slice(start, end)} → ${pattern}`);
          }
        }
      }
    }
  });
});
