// npm test runs this file in one pass only: it checks the dashboard's own code, which no store changes (decision 230).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { LIVE_ANNOUNCEMENTS } from '../../src/db/announcements.ts';

/**
 * The dashboard cannot import the server's code, and EventSource has no wildcard listener: the
 * live feed's message types are listed again in web/src/live.tsx. This keeps the two lists equal.
 */
describe('live message types', () => {
  it('the dashboard listens to every announcement the live feed relays, and to nothing else', () => {
    const source = fs.readFileSync(path.resolve(import.meta.dirname, '../../web/src/live.tsx'), 'utf8');
    const list = /const MESSAGE_TYPES = \[([^\]]*)\]/.exec(source);
    assert.ok(list, 'web/src/live.tsx declares MESSAGE_TYPES');
    const listened = [...list[1]!.matchAll(/'([^']+)'/g)].map((match) => match[1]);
    assert.deepEqual(new Set(listened), new Set([...LIVE_ANNOUNCEMENTS, 'message']));
  });
});
