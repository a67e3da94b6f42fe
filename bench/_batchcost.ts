import { createClient } from '../src/db/client.ts';
import { insertEvents } from '../src/features/events/queries.ts';
import { validateEventInput } from '../src/features/events/validateEventInput.ts';
import { eventFields } from './bodies.ts';
const url = process.argv[2]!;
const project = process.argv[3]!;
const org = process.argv[4]!;
const sql = createClient(url, { max: 2 });
const drafts = Array.from({ length: 400 }, (_, i) => ({ ...validateEventInput({ project, ...eventFields(i + 1) } as never), organizationId: org }));
for (const size of [1, 10, 25, 50, 100, 200, 400]) {
  const times: number[] = [];
  for (let i = 0; i < Math.max(5, Math.round(2000 / size)); i++) {
    const t = performance.now();
    await insertEvents(sql, drafts.slice(0, size));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const med = times[Math.floor(times.length / 2)]!;
  console.log(`batch ${String(size).padStart(3)}: median ${med.toFixed(2)} ms, ${(med / size * 1000).toFixed(0)} us/row, ${(size / med * 1000).toFixed(0)} rows/s`);
}
await sql.end();
