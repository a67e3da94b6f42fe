// npm test runs this file in one pass only: it reads the sources, not a database (decision 230).
// The tests wait in one place (test/wait.ts): one waitUntil that says what it awaited and what it
// saw last, and one sleep for where time itself is tested. A file-local copy drifts (its own poll
// interval, an error that says only "timed out"), so no other test file defines one.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { filesUnder } from './codeMap.ts';

const root = path.resolve(import.meta.dirname, '../..');
const WAIT = 'test/wait.ts';
const NAMES = 'sleep|waitFor|waitUntil';

/** A function, a variable or an alias of one of the names: what would be a second way to wait. */
const DEFINITION = new RegExp(`\\b(?:function\\*?|const|let|var|as)\\s+(?:${NAMES})\\b`);

it('defines sleep, waitFor and waitUntil only in test/wait.ts', () => {
  const found: string[] = [];
  for (const file of filesUnder('test', /\.(ts|tsx|js|mjs)$/)) {
    if (file === WAIT) continue;
    fs.readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (DEFINITION.test(line.replace(/\/\/.*$/, ''))) found.push(`${file}:${index + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(found, [], `import waitUntil or sleep from ${WAIT} instead`);
});
