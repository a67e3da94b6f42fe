// npm test runs this file in one pass only: it reads the sources, not a database (decision 230).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EVENTS, FOLDER_OF_FILE, type Owners, lineAt, parseOwners, readCodeMap, readSources, withoutComments } from './codeMap.ts';

// docs/architecture.md, "Who owns which table" (decision 220): each table is written by its owning
// feature only, and SQL is written in query files only. These read the sources' text, so a write
// that slips into another feature's folder, or a statement into a verb, fails here with its file
// and line. Reads across features are checked by crossFeatureReads.test.ts.
interface Write {
  table: string;
  line: number;
  statement: string;
}

// Keywords are matched in capitals, as every statement here is written. `DO UPDATE` (an upsert
// writes the table its INSERT names) and `FOR [NO KEY] UPDATE` (a lock) name no table; COPY ...
// FROM STDIN writes as an INSERT does.
const WRITES = [
  /\bINSERT\s+INTO\s+([a-z_]+)/g,
  /\bMERGE\s+INTO\s+([a-z_]+)/g,
  /(?<!\b(?:DO|FOR|KEY|ON)\s+)\bUPDATE\s+(?:ONLY\s+)?([a-z_]+)/g,
  /\bDELETE\s+FROM\s+(?:ONLY\s+)?([a-z_]+)/g,
  /\bTRUNCATE\s+(?:TABLE\s+)?([a-z_]+)/g,
  /\bCOPY\s+([a-z_]+)\b[^;`]*?\bFROM\s+STDIN/g,
];

/** Every write statement of a source file, with the line it starts on. */
function findWrites(file: string, text: string): Write[] {
  const code = withoutComments(file, text);
  return WRITES.flatMap((pattern) => [...code.matchAll(pattern)])
    .sort((a, b) => a.index - b.index)
    .map((match) => ({ table: match[1]!, line: lineAt(code, match.index), statement: match[0].replace(/\s+/g, ' ') }));
}

/** A tagged template on `sql` or `tx` (`sql\`…\``, `tx\`…\``, `services.sql\`…\``): a statement or a piece of one. */
const STATEMENT = /\b(?:sql|tx)\s*`/g;

/**
 * Whether a file may hold statements: a feature's `queries.ts` and `*Queries.ts`, and `src/db/`,
 * the schema's own machinery (the pool, migrations, backup and restore, settings, the bus), which
 * belongs to no feature. Migrations are SQL files, not scanned for this.
 */
const mayHoldSql = (file: string) => /[qQ]ueries\.ts$/.test(file) || file.startsWith('src/db/');

function writesOutsideOwners(owners: Owners, files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([file, text]) => {
    const folder = FOLDER_OF_FILE[file] ?? file;
    return findWrites(file, text).flatMap(({ table, line, statement }) => {
      const owner = owners.owner.get(table);
      if (!owner) return [`${file}:${line}: ${statement}: ${table} has no owner in docs/architecture.md`];
      if (folder.startsWith(owner) || (folder.startsWith(EVENTS) && owners.broughtByEvents.has(table))) return [];
      return [`${file}:${line}: ${statement}: ${table} is written by ${owner} only`];
    });
  });
}

function statementsOutsideQueryFiles(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([file, text]) => {
    if (mayHoldSql(file) || file.endsWith('.sql')) return [];
    const code = withoutComments(file, text);
    return [...code.matchAll(STATEMENT)].map((match) => `${file}:${lineAt(code, match.index)}: SQL outside a query file`);
  });
}

const owners = parseOwners(readCodeMap());
const sources = readSources();

describe('table owners', () => {
  it('reads one owner for every table from the code map', () => {
    assert.equal(owners.owner.get('credentials'), 'src/features/organizations/');
    assert.equal(owners.owner.get('app_users'), 'src/features/profiles/');
    assert.equal(owners.owner.get('schema_migrations'), 'src/db/');
    assert.deepEqual([...owners.broughtByEvents].sort(), ['app_users', 'notify_outbox']);
  });

  it('finds no table written outside its owner', () => {
    // Every table listed is written somewhere: a row of the map nothing writes is stale, and a
    // scanner that stops seeing statements fails here too.
    const written = new Set(Object.entries(sources).flatMap(([file, text]) => findWrites(file, text).map((write) => write.table)));
    assert.deepEqual(
      [...owners.owner.keys()].filter((table) => !written.has(table)),
      [],
      'tables listed that nothing writes',
    );
    assert.deepEqual(writesOutsideOwners(owners, sources), []);
  });

  it('finds no SQL outside query files', () => {
    assert.deepEqual(statementsOutsideQueryFiles(sources), []);
  });

  it('finds every kind of write, and no lock, upsert clause or comment', () => {
    const text = [
      '// Deletes the rows: DELETE FROM comments is prose.',
      'sql`INSERT INTO api_keys AS k (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET id = 2`;',
      'sql`SELECT 1 FROM organizations FOR NO KEY UPDATE`; sql`SELECT 1 FROM projects FOR UPDATE`;',
      'sql`UPDATE',
      '  sessions SET x = 1`; sql`DELETE FROM credentials WHERE hash = $1`; tx`TRUNCATE TABLE events`;',
      'tx.unsafe(`COPY events (id, title) FROM STDIN`); sql`WITH d AS (DELETE FROM invitations) SELECT 1`;',
    ].join('\n');
    assert.deepEqual(
      findWrites('src/features/keys/queries.ts', text).map(({ table, line }) => `${line} ${table}`),
      ['2 api_keys', '4 sessions', '5 credentials', '5 events', '6 events', '6 invitations'],
    );
    assert.deepEqual(findWrites('x.sql', '-- INSERT INTO events\nSELECT 1;'), []);
  });

  it("fails a write in another feature's folder, naming the file, the line and the owner", () => {
    const fixture = { 'src/features/keys/queries.ts': 'import x;\n\nawait sql`DELETE FROM credentials WHERE hash = ${hash}`;\n' };
    assert.deepEqual(writesOutsideOwners(owners, fixture), [
      'src/features/keys/queries.ts:3: DELETE FROM credentials: credentials is written by src/features/organizations/ only',
    ]);
    assert.deepEqual(writesOutsideOwners(owners, { 'src/features/organizations/queries.ts': fixture['src/features/keys/queries.ts'] }), []);
    assert.match(writesOutsideOwners(owners, { 'src/features/keys/queries.ts': 'sql`INSERT INTO nobodys_table (a) VALUES (1)`' })[0]!, /has no owner/);
  });

  it('lets the events feature alone write the rows an event brings', () => {
    const text = 'sql`UPDATE app_users SET event_count = 0`';
    assert.deepEqual(writesOutsideOwners(owners, { 'src/features/events/deleteQueries.ts': text }), []);
    assert.equal(writesOutsideOwners(owners, { 'src/features/groups/queries.ts': text }).length, 1);
    assert.deepEqual(writesOutsideOwners(owners, { 'migrations/repeatable/ingest_events.sql': 'INSERT INTO notify_outbox (a) VALUES (1);' }), []);
  });

  it('fails a statement in a verb, and passes query files and db/', () => {
    const text = 'export async function f(tx) {\n  // the transaction is its `sql`\n  await tx`SELECT pg_advisory_xact_lock(1)`;\n}\n';
    assert.deepEqual(statementsOutsideQueryFiles({ 'src/features/sessions/setUpInstallation.ts': text }), [
      'src/features/sessions/setUpInstallation.ts:3: SQL outside a query file',
    ]);
    assert.deepEqual(
      statementsOutsideQueryFiles({ 'src/features/sessions/queries.ts': text, 'src/features/delivery/groupQueries.ts': text, 'src/db/settings.ts': text }),
      [],
    );
  });
});
