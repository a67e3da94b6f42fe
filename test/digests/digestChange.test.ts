// npm test runs this file in one pass only: pure functions, no database (decision 230).
// The digest's change against the previous period (src/features/digests/digestMail.ts): words
// without parentheses inside the line's own pair (issue 49, point 19: "±0 (+0%)").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { change } from '../../src/features/digests/digestMail.ts';

describe("the digest's change words", () => {
  it('says no change, new, or the difference and its percentage', () => {
    assert.equal(change(5, 5), 'no change');
    assert.equal(change(0, 0), 'no change');
    assert.equal(change(3, 0), 'new');
    assert.equal(change(7, 5), '+2, +40%');
    assert.equal(change(4, 5), '−1, −20%');
    for (const words of [change(5, 5), change(7, 5), change(4, 5)]) assert.doesNotMatch(words, /[()±]/);
  });
});
