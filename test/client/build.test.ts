// npm test runs this file in one pass only: it builds and runs the client package, which never touches a database (decision 230).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLIENT = path.join(ROOT, 'client');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-client-build-'));
after(() => fs.rmSync(out, { recursive: true, force: true }));

describe('@eventlog/client package', () => {
  it('builds to ESM with type declarations, has no runtime dependencies, and its build runs', async () => {
    // The package's own build (tsc -p client/tsconfig.json), into a scratch directory.
    await promisify(execFile)(process.execPath, [
      path.join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      path.join(CLIENT, 'tsconfig.json'),
      '--outDir',
      out,
    ]);
    for (const file of ['index.js', 'index.d.ts', 'generated.d.ts', 'request.js']) assert.ok(fs.existsSync(path.join(out, file)), file);

    const manifest = JSON.parse(fs.readFileSync(path.join(CLIENT, 'package.json'), 'utf8'));
    assert.equal(manifest.name, '@eventlog/client');
    assert.equal(manifest.type, 'module');
    assert.equal(manifest.dependencies, undefined, 'no runtime dependencies');
    assert.deepEqual(manifest.exports['.'], { types: './dist/index.d.ts', import: './dist/index.js' });

    // Only relative imports: nothing to install, nothing Node-only.
    for (const file of fs.readdirSync(out).filter((name) => name.endsWith('.js'))) {
      const text = fs.readFileSync(path.join(out, file), 'utf8');
      for (const match of text.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g)) assert.match(match[1]!, /^\.\/[\w-]+\.js$/, `${file} imports ${match[1]}`);
      assert.doesNotMatch(text, /\bprocess\.|\brequire\(|node:/, `${file} must run in a browser`);
    }

    const built = await import(pathToFileURL(path.join(out, 'index.js')).href);
    const log = new built.Eventlog({ project: 'p', disabled: true });
    assert.equal(await log.track({ category: 'c', title: 't' }), undefined);
    assert.equal(new built.EventlogError(418, 'teapot').status, 418);
    assert.throws(() => new built.Eventlog({ project: 'p' }), /token/);
  });
});
