// npm test runs this file in one pass only: it reads the sources, not a database (decision 230).
// One layout for the tests (docs/architecture.md, "Where a new thing goes"): a folder of test/ is
// named after the feature of src/features/ it tests, or is one of the few areas below that no
// feature owns. A folder per layer (test/api/ beside test/events/) would split a feature's tests
// between two places again.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');

/** Folders of test/ that are not features, and what each covers. */
const AREAS: Record<string, string> = {
  browser: 'the dashboard driven in Chromium',
  web: "the dashboard's code and files without a browser",
  http: 'src/http/: errors, the OpenAPI document',
  storage: 'the database layer: the embedded PostgreSQL, DATABASE_URL, Citus',
  hardening: 'limits and hostile input across routes',
  security: 'authentication and scope of every route',
  ops: 'running an installation: start, backups, metrics, secret files',
  cli: 'the command line',
  client: 'the client library (client/)',
  structure: 'the rules of the code itself',
  container: 'the container image, in a lane of its own',
  recipes: 'the integration recipes of the documentation',
  dashboard: 'nothing but signedIn.ts, re-exporting test/signedIn.ts for files that import it there',
};

it('names every folder of test/ after a feature or an area', () => {
  const features = new Set(
    fs
      .readdirSync(path.join(root, 'src/features'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name),
  );
  // An empty folder is not in git: a checkout may keep one after its files moved away.
  const folders = fs
    .readdirSync(path.join(root, 'test'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.readdirSync(path.join(root, 'test', e.name), { recursive: true }).length > 0)
    .map((e) => e.name);
  const stray = folders.filter((folder) => !features.has(folder) && !(folder in AREAS));
  assert.deepEqual(stray, [], 'name the folder after the src/features/ folder its tests cover, or add an area here and in docs/architecture.md');
});

it('keeps no test in test/dashboard/', () => {
  const dir = path.join(root, 'test/dashboard');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  assert.deepEqual(
    files.filter((file) => file !== 'signedIn.ts'),
    [],
    "a dashboard test goes to test/web/ or to its feature's folder",
  );
});

it('runs the dashboard-code and code-rule files in one pass of npm test, as their first line says (decision 230)', () => {
  const unmarked = ['web', 'structure'].flatMap((folder) =>
    fs
      .readdirSync(path.join(root, 'test', folder))
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => `test/${folder}/${file}`)
      .filter((file) => !fs.readFileSync(path.join(root, file), 'utf8').startsWith('// npm test runs this file in one pass only: ')),
  );
  assert.deepEqual(unmarked, [], 'start the file with "// npm test runs this file in one pass only: <why> (decision 230)."');
});
