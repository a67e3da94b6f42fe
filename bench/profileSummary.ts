/**
 * Where the server's CPU time went, from a V8 .cpuprofile (`npm run bench -- --profile` writes
 * one per server start into .bench-data/profiles):
 *
 *   node --import tsx bench/profileSummary.ts <file.cpuprofile> [top]
 *
 * Prints self time grouped by package / source area, then the hottest functions. The profile
 * covers the whole server process, start-up and data loading included: `BUSIEST=<seconds>` keeps
 * only the busiest window of that length (an ingest run), `SKIP=<seconds>` leaves out the first
 * seconds (the start-up's compiling, busy enough to win the window otherwise), and
 * `CALLERS=<function>` shows who calls a function.
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node --import tsx bench/profileSummary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map<number, number>();
const [from, to] = busiestWindow(Number(process.env.BUSIEST ?? 0) * 1e6);
profile.samples.forEach((id, i) => {
  if (i >= from && i < to) selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

/** The samples [from, to) of the window of `micros` with the least idle time; all of them for 0. */
function busiestWindow(micros: number): [number, number] {
  if (micros <= 0) return [0, profile.samples.length];
  const idleId = new Set(profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id));
  let best: [number, number] = [0, profile.samples.length];
  let bestBusy = -1;
  let start = skipped(Number(process.env.SKIP ?? 0) * 1e6);
  let span = 0;
  let busy = 0;
  for (let end = start; end < profile.samples.length; end++) {
    const delta = profile.timeDeltas[end] ?? 0;
    span += delta;
    if (!idleId.has(profile.samples[end]!)) busy += delta;
    while (span > micros && start < end) {
      const gone = profile.timeDeltas[start] ?? 0;
      span -= gone;
      if (!idleId.has(profile.samples[start]!)) busy -= gone;
      start++;
    }
    if (span >= micros * 0.99 && busy > bestBusy) {
      bestBusy = busy;
      best = [start, end + 1];
    }
  }
  return best;
}

/** The index of the first sample after `micros` of the profile. */
function skipped(micros: number): number {
  let at = 0;
  for (let elapsed = 0; at < profile.samples.length && elapsed < micros; at++) elapsed += profile.timeDeltas[at] ?? 0;
  return at;
}

function area(url: string, name: string): string {
  if (name === '(idle)') return '(idle)';
  if (name === '(garbage collector)') return '(garbage collector)';
  if (name === '(program)') return '(program: native, not attributed)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(src|bench)\/(.+?)(?:\/[^/]+)?$/.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  if (url.startsWith('node:') || url === '') return `node internals${name ? '' : ''}`;
  return url;
}

const areas = new Map<string, number>();
const functions = new Map<string, number>();
let total = 0;
let idle = 0;
for (const [id, micros] of selfMicros) {
  const node = byId.get(id)!;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = area(url, functionName);
  total += micros;
  if (where === '(idle)') idle += micros;
  areas.set(where, (areas.get(where) ?? 0) + micros);
  const key = `${functionName || '(anonymous)'}  ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/')}:${lineNumber + 1}`;
  functions.set(key, (functions.get(key) ?? 0) + micros);
}

const busy = total - idle;
const pct = (micros: number) => `${((100 * micros) / busy).toFixed(1).padStart(5)}%`;
console.log(
  `profile: ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (${((100 * busy) / total).toFixed(0)}%); shares below are of busy time\n`,
);
console.log('By area:');
for (const [name, micros] of [...areas]
  .filter(([name]) => name !== '(idle)')
  .sort((a, b) => b[1] - a[1])
  .slice(0, 25)) {
  console.log(`  ${pct(micros)}  ${name}`);
}
console.log('\nHottest functions (self time):');
for (const [name, micros] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 30))) {
  if (name.startsWith('(idle)')) continue;
  console.log(`  ${pct(micros)}  ${name}`);
}

// `CALLERS=<function name>`: who calls it, by self time of that function, three frames up.
const target = process.env.CALLERS;
if (target) {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const chains = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    if (byId.get(id)!.callFrame.functionName !== target) continue;
    const names: string[] = [];
    for (let at = parent.get(id), depth = 0; at !== undefined && depth < 14; at = parent.get(at), depth++) {
      const frame = byId.get(at)!.callFrame;
      names.push(`${frame.functionName || '(anonymous)'}@${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`);
    }
    const chain = names.join(' < ');
    chains.set(chain, (chains.get(chain) ?? 0) + micros);
  }
  console.log(`\nCallers of ${target}:`);
  for (const [chain, micros] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${pct(micros)}  ${chain}`);
}
