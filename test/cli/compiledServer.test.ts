import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
// @ts-expect-error plain JavaScript module without types
import { root, sourceFingerprint } from '../../scripts/serverBuild.js';

describe('compiled server fingerprint (bin/eventlog.js runs dist/ only when it matches src/)', () => {
  it('changes when a source changes, so an edited source is never shadowed by an old build', () => {
    const file = path.join(root as string, 'src/config.ts');
    const { atime, mtime } = fs.statSync(file);
    const fingerprint = sourceFingerprint as () => string;
    try {
      fs.utimesSync(file, atime, new Date(mtime.getTime() + 5000));
      const before = fingerprint();
      assert.equal(fingerprint(), before);
      fs.utimesSync(file, atime, new Date(mtime.getTime() + 10_000));
      assert.notEqual(fingerprint(), before);
    } finally {
      // Whole milliseconds: a stale fingerprint only means tsx runs until the next build.
      fs.utimesSync(file, atime, mtime);
    }
  });
});
