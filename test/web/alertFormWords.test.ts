// npm test runs this file in one pass only: it checks the dashboard's own code, which no store changes (decision 230).
// The alert form's words (web/src/pages/alerts/alertFormWords.ts): the server's refusals beside
// their field in plain words (issue 49, point 4), a name from the feed's filters (point 16).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAlertForm, fieldOfRefusal, nameFromSeed } from '../../web/src/pages/alerts/alertFormWords.ts';

describe('the alert form in words', () => {
  it('puts a schema refusal beside its field, in words', () => {
    assert.deepEqual(fieldOfRefusal('body.condition.threshold must be >= 1'), {
      field: 'threshold',
      words: 'Use a whole number of events from 1 to 1,000,000.',
    });
    assert.deepEqual(fieldOfRefusal('body.condition.windowSeconds must be >= 10'), { field: 'window', words: 'Use a window of 10 seconds to 365 days.' });
    assert.equal(fieldOfRefusal('name must be 1 to 200 characters').field, 'name');
    assert.deepEqual(fieldOfRefusal('category must be 1 to 64 characters'), { field: 'category', words: 'category must be 1 to 64 characters' });
    assert.deepEqual(fieldOfRefusal('Too many alerts in this project'), { field: 'form', words: 'Too many alerts in this project' });
  });

  it('checks before sending', () => {
    assert.deepEqual(checkAlertForm({ name: 'x', threshold: '2', windowSeconds: 60 }), {});
    assert.deepEqual(Object.keys(checkAlertForm({ name: ' ', threshold: '0', windowSeconds: 5 })).sort(), ['name', 'threshold', 'window']);
  });

  it('names an alert after the filters it starts from', () => {
    assert.equal(nameFromSeed({ category: 'errors', tags: ['area:cart'] }), 'errors events tagged area:cart');
    assert.equal(nameFromSeed({ userId: 'u1' }), 'Events of user u1');
    assert.equal(nameFromSeed(undefined), '');
  });
});
