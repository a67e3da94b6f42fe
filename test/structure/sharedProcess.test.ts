// npm test runs this file in one pass only: it reads the sources, not a database (decision 230).
// Under `npm test` several test files run one after another in one process (decision 231), and a
// module they import is loaded once for all of them. A helper module that starts an app or
// registers a hook when it loads would do so for the first file only, and the next file would meet
// an app already closed: a helper exports a function that the test file calls instead.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { filesUnder } from './codeMap.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** A top-level statement (no indentation) that starts an app or registers a hook. */
const AT_LOAD = /^(?:export\s+)?(?:(?:const|let|var)\s+\w+\s*=\s*)?(?:useTestApp|useRouteSuite|before|after|beforeEach|afterEach)\(/;

it('no helper module of the tests starts an app or registers a hook when it loads', () => {
  const found: string[] = [];
  for (const file of filesUnder('test', /\.tsx?$/).filter((file) => !file.endsWith('.test.ts'))) {
    fs.readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (AT_LOAD.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(found, [], 'export a function that each test file calls (as test/security/routeSuite.ts useRouteSuite does)');
});
