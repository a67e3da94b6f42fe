// npm test runs this file in one pass only: it reads the sources, not a database (decision 230).
// The description markup is parsed by one grammar in two places: the dashboard renders it with
// React (web/src/components/), the server writes it into emails (src/lib/markup/). Neither side
// may import the other (docs/architecture.md; the server is compiled from src/ alone), so the
// parser is copied, and this test keeps the copies identical (decision 110).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');

for (const file of ['markupParser.ts', 'markupInline.ts']) {
  it(`src/lib/markup/${file} is the dashboard's copy, byte for byte`, () => {
    const dashboard = fs.readFileSync(path.join(root, 'web/src/components', file), 'utf8');
    const server = fs.readFileSync(path.join(root, 'src/lib/markup', file), 'utf8');
    assert.equal(server, dashboard, `copy web/src/components/${file} to src/lib/markup/${file}`);
  });
}
