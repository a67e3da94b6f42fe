// npm test runs this file in one pass only: it reads the sources, not a database (decision 230).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Owners, codeMapSection, lineAt, parseOwners, readCodeMap, readSources, withoutComments } from './codeMap.ts';

// docs/architecture.md, "Reads across features": a feature's statements read another feature's
// table only where that section names the query file and the table, with the reason. A new read
// across the walls fails here until it is written down (or goes through the owner's verb), and a
// row nothing reads any more fails too, so the list stays the truth.
const FEATURES = 'src/features/';

/** Query file (relative to src/features/) → the other features' tables it may read. */
function parseAllowedReads(markdown: string): Map<string, Set<string>> {
  const allowed = new Map<string, Set<string>>();
  for (const line of codeMapSection(markdown, 'Reads across features').split('\n')) {
    const cells = line.split('|').slice(1, -1);
    if (cells.length < 3 || !cells[0]!.includes('`')) continue;
    const file = /`([A-Za-z]+\/[A-Za-z]+\.ts)`/.exec(cells[0]!)?.[1];
    assert.ok(file, `a query file in: ${line}`);
    assert.ok(!allowed.has(file), `${file} is listed once`);
    assert.ok(cells[2]!.trim().length > 0, `a reason for ${file}`);
    allowed.set(file, new Set([...cells[1]!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!)));
  }
  return allowed;
}

interface Read {
  file: string;
  table: string;
  line: number;
}

/** The tables a feature's file reads (FROM, JOIN) that another feature owns. */
function readsAcrossFeatures(owners: Owners, files: Record<string, string>): Read[] {
  return Object.entries(files).flatMap(([file, text]) => {
    if (!file.startsWith(FEATURES)) return [];
    const folder = `${FEATURES}${file.slice(FEATURES.length).split('/')[0]}/`;
    const code = withoutComments(file, text);
    return [...code.matchAll(/\b(?:FROM|JOIN)\s+(?:ONLY\s+)?([a-z_]+)/g)].flatMap((match) => {
      const owner = owners.owner.get(match[1]!);
      return owner && owner !== folder ? [{ file: file.slice(FEATURES.length), table: match[1]!, line: lineAt(code, match.index) }] : [];
    });
  });
}

function unlistedReads(reads: Read[], allowed: Map<string, Set<string>>): string[] {
  return reads
    .filter(({ file, table }) => !allowed.get(file)?.has(table))
    .map(({ file, table, line }) => `${FEATURES}${file}:${line}: reads ${table}, another feature's table, without a row in "Reads across features"`);
}

function staleRows(reads: Read[], allowed: Map<string, Set<string>>): string[] {
  const read = new Set(reads.map(({ file, table }) => `${file} ${table}`));
  return [...allowed].flatMap(([file, tables]) => [...tables].filter((table) => !read.has(`${file} ${table}`)).map((table) => `${file} ${table}`));
}

const codeMap = readCodeMap();
const owners = parseOwners(codeMap);
const allowed = parseAllowedReads(codeMap);
const reads = readsAcrossFeatures(owners, readSources());

describe('reads across features', () => {
  it('finds each read of another feature listed in the code map, with its reason', () => {
    assert.ok(allowed.get('digests/queries.ts')?.has('events'), 'the digests read model is listed');
    assert.deepEqual(unlistedReads(reads, allowed), []);
  });

  it('lists no read that the sources no longer make', () => {
    assert.deepEqual(staleRows(reads, allowed), []);
  });

  it("fails a read of another feature's table, naming the file and line, and ignores its own tables and comments", () => {
    const text = [
      '// Reads FROM projects in prose only.',
      'sql`SELECT 1 FROM alerts a',
      '  JOIN projects p ON p.id = a.project_id -- a comment naming JOIN users',
      '  WHERE EXISTS (SELECT 1 FROM events e)`;',
    ].join('\n');
    const found = readsAcrossFeatures(owners, { 'src/features/alerts/queries.ts': text });
    assert.deepEqual(
      found.map(({ table, line }) => `${line} ${table}`),
      ['3 projects', '4 events'],
    );
    assert.deepEqual(unlistedReads(found, new Map([['alerts/queries.ts', new Set(['projects'])]])), [
      'src/features/alerts/queries.ts:4: reads events, another feature\'s table, without a row in "Reads across features"',
    ]);
  });
});
