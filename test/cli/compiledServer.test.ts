import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { root, serverNodeFlags, sourceFingerprint } from '../../scripts/serverBuild.js';

describe('compiled server fingerprint (bin/eventlog.js runs dist/ only when it matches src/)', () => {
  it('changes when a source changes, so an edited source is never shadowed by an old build', () => {
    const file = path.join(root, 'src/config.ts');
    const { atime, mtime } = fs.statSync(file);
    const fingerprint = sourceFingerprint;
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

describe('Node flags of the server (docs/decisions/035-young-generation.md)', () => {
  it('are the same for `eventlog serve`, `npm start` and `npm run dev`', () => {
    const flags = serverNodeFlags();
    assert.ok(flags.includes('--max-semi-space-size=8'), `flags: ${flags.join(' ')}`);
    const scripts = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
    for (const name of ['start', 'dev']) {
      assert.ok(scripts[name]?.includes(`node ${flags.join(' ')} bin/eventlog.js serve`), `${name}: ${scripts[name]}`);
    }
  });
});
