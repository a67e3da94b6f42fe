// npm test runs this file in one pass only: it reads the sources, not a database (decision 230).
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

// The layer rules of docs/architecture.md live in eslint.config.js; these lint a few lines of
// text as if they were a file of that layer, so a rule that stops matching fails here.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: ROOT });

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  assert.ok(result, 'ESLint linted the text');
  return result.messages.filter((message) => message.ruleId === 'no-restricted-imports' && message.severity === 2).map((message) => message.message);
}

describe('layer rules', () => {
  it('fail lib/ importing a feature', async () => {
    const errors = await importErrors(
      'src/lib/text.ts',
      "import { createEvent } from '../features/events/createEvent.ts';\nexport const used = createEvent;\n",
    );
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /db\/ and lib\/ know no feature/);
  });

  it('fail db/ importing a feature', async () => {
    const errors = await importErrors('src/db/catalog.ts', "import type { Ctx } from '../features/keys/keyAuthenticator.ts';\nexport type Used = Ctx;\n");
    assert.equal(errors.length, 1);
  });

  it('fail the request context importing a feature', async () => {
    const errors = await importErrors(
      'src/context.ts',
      "import type { IngestBatcher } from './features/events/ingestBatcher.ts';\nexport type Used = IngestBatcher;\n",
    );
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /context\.ts, ports\.ts and http\/ know no feature/);
  });

  it('fail the ports importing a feature', async () => {
    const errors = await importErrors(
      'src/ports.ts',
      "import type { ProjectPurger } from './features/projects/projectPurger.ts';\nexport type Used = ProjectPurger;\n",
    );
    assert.equal(errors.length, 1);
  });

  it('fail http/ importing a feature', async () => {
    const errors = await importErrors(
      'src/http/auth.ts',
      "import type { KeyAuthenticator } from '../features/keys/keyAuthenticator.ts';\nexport type Used = KeyAuthenticator;\n",
    );
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /know no feature: declare what they need in ports\.ts/);
  });

  it('fail a feature importing the application root or the command line', async () => {
    const errors = await importErrors(
      'src/features/events/createEvent.ts',
      "import { buildApp } from '../../app.ts';\nimport { main } from '../../cli/main.ts';\nexport const used = [buildApp, main];\n",
    );
    assert.equal(errors.length, 2);
    assert.match(errors[0]!, /Features never import the application root/);
  });

  it('fail the dashboard importing server code', async () => {
    const errors = await importErrors('web/src/api.ts', "import { loadConfig } from '../../src/config.ts';\nexport const used = loadConfig;\n");
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /JSON API only/);
  });

  it("fail a feature importing another feature's queries, from any of its files", async () => {
    const errors = await importErrors(
      'src/features/keys/createKey.ts',
      "import { findOrganization } from '../organizations/queries.ts';\nimport { listFiringAlerts as a } from '../alerts/engineQueries.ts';\nexport const used = [findOrganization, a];\n",
    );
    assert.equal(errors.length, 2);
    assert.match(errors[0]!, /never its queries/);
    const nested = await importErrors('src/features/hooks/templates/alertGroup.ts', "import { x } from '../../events/queries.ts';\nexport const used = x;\n");
    assert.equal(nested.length, 1);
  });

  it('pass the arrows the picture allows', async () => {
    const errors = await importErrors(
      'src/features/events/createEvent.ts',
      "import { InvalidInput } from '../../lib/errors.ts';\nexport const used = InvalidInput;\n",
    );
    assert.deepEqual(errors, []);
    // A feature's own SQL, from its subfolders too, and another feature's exported helper.
    const own = await importErrors(
      'src/features/hooks/templates/alertGroup.ts',
      "import { listHooks } from '../queries.ts';\nimport { lookUpOrganization } from '../../organizations/organizationRecord.ts';\nexport const used = [listHooks, lookUpOrganization];\n",
    );
    assert.deepEqual(own, []);
  });
});
