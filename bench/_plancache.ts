import postgres from 'postgres';
import { insertEvents } from '../src/features/events/queries.ts';
import { validateEventInput } from '../src/features/events/validateEventInput.ts';
import { eventFields } from './bodies.ts';
const [url, project, org] = process.argv.slice(2) as [string, string, string];
const sql = postgres(url, { max: 1, onnotice: () => {} });
const all = Array.from({ length: 400 }, (_, i) => ({ ...validateEventInput({ project, ...eventFields(i + 7) } as never), organizationId: org }));
for (const size of [1, 5, 25, 100, 400]) {
await sql.begin(async (tx) => {
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    await insertEvents(tx as never, all.slice(0, size));
    times.push(performance.now() - t);
  }
  const later = times.slice(5).sort((a, b) => a - b);
  const m = later[Math.floor(later.length / 2)]!;
  console.log(size, 'rows: median ms', m.toFixed(2), (m * 1000 / size).toFixed(0), 'us/row');
  throw new Error('rollback');
}).catch((e) => { if (e.message !== 'rollback') throw e; });
}
await sql.end();
