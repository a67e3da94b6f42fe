import postgres from 'postgres';
import { insertEvents } from '../src/features/events/queries.ts';
import { validateEventInput } from '../src/features/events/validateEventInput.ts';
import { eventFields } from './bodies.ts';
const [url, project, org, sizeArg, dropGin] = process.argv.slice(2) as [string, string, string, string, string?];
let captured: { query: string; params: unknown[] } | undefined;
const sql = postgres(url, { max: 1, onnotice: () => {}, debug: (_c: number, query: string, params: unknown[]) => { if (!captured && query.includes('json_to_recordset')) captured = { query, params }; } });
const size = Number(sizeArg);
const drafts = Array.from({ length: size }, (_, i) => ({ ...validateEventInput({ project, ...eventFields(i + 7) } as never), organizationId: org }));
await insertEvents(sql as never, drafts);
await sql.begin(async (tx) => {
  if (dropGin) await tx.unsafe(`DROP INDEX events_search`);
  for (let i = 0; i < 3; i++) {
    const plan = await tx.unsafe(`EXPLAIN (ANALYZE, BUFFERS, WAL) ${captured!.query}`, captured!.params as never[]);
    if (i === 2) console.log(plan.map((r) => r['QUERY PLAN']).join('\n'));
  }
  throw new Error('rollback');
}).catch((e) => { if (e.message !== 'rollback') throw e; });
await sql.end();
