// npm test runs this file in one pass only: it checks the dashboard's own code, which no store changes (decision 230).
// The dashboard's pure wording helpers (web/src/components/wording.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { count, fieldOfMessage } from '../../web/src/components/wording.ts';

describe('dashboard wording', () => {
  it('counts with the right plural', () => {
    assert.equal(count(0, 'insight'), '0 insights');
    assert.equal(count(1, 'insight'), '1 insight');
    assert.equal(count(2, 'project'), '2 projects');
    assert.equal(count(1200, 'event'), (1200).toLocaleString() + ' events');
  });

  it("ties a server error to the field it starts with, schema errors' body. prefix included", () => {
    const fields = { name: ['name'], url: ['url'], categories: ['categories', 'category'] };
    assert.equal(fieldOfMessage('name must be at most 200 characters of text', fields), 'name');
    assert.equal(fieldOfMessage('body.name must NOT have more than 200 characters', fields), 'name');
    assert.equal(fieldOfMessage('url is not a valid absolute URL', fields), 'url');
    assert.equal(fieldOfMessage('categories must not contain an empty name', fields), 'categories');
    assert.equal(fieldOfMessage('body.category is required', fields), 'categories');
  });

  it('leaves an error about no field to a toast', () => {
    const fields = { name: ['name'] };
    assert.equal(fieldOfMessage('Managing API keys needs a dashboard session', fields), null);
    assert.equal(fieldOfMessage('names must be unique', fields), null, 'a word that only starts like the field');
    assert.equal(fieldOfMessage('The server is unreachable', fields), null);
  });
});
