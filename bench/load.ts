/**
 * The load generator: its own process, so that it never shares an event loop with the server
 * it measures. Reads one JSON spec from argv, drives autocannon, prints the runs' results as one JSON line.
 *
 * Latency percentiles are computed here from every response time autocannon reports (in
 * fractional milliseconds): its own histogram keeps whole milliseconds, too coarse for a
 * 3 ms target.
 */
import { createRequire } from 'node:module';
import { type RequestBody, apiBodies, batchBodies, hookBodies } from './bodies.ts';
import { type LoadResult, type LoadSpec, percentile } from './measure.ts';

interface Instance extends NodeJS.EventEmitter {
  stop(): void;
}
interface AutocannonResult {
  duration: number;
  errors: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: AutocannonResult) => void) => Instance;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const BODY_VARIANTS = 2000;

function bodiesFor(spec: LoadSpec): RequestBody[] | undefined {
  if (!spec.bodies) return undefined;
  if (spec.bodies.kind === 'hook') return hookBodies(BODY_VARIANTS);
  if (spec.bodies.kind === 'fixed') return [{ body: spec.bodies.body }];
  // As many distinct events as the single route cycles through, whatever the batch size.
  if (spec.bodies.kind === 'batch') return batchBodies(spec.bodies.project, spec.bodies.size, Math.max(2, Math.ceil(BODY_VARIANTS / spec.bodies.size)));
  return apiBodies(spec.bodies.project, BODY_VARIANTS);
}

function run(spec: LoadSpec, seconds: number, bodies: RequestBody[] | undefined): Promise<LoadResult> {
  let next = 0;
  const latencies: number[] = [];
  const headers = { ...(bodies ? { 'content-type': 'application/json' } : {}), ...spec.headers };
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.origin,
        connections: spec.connections,
        ...(spec.rate ? { overallRate: spec.rate } : {}),
        duration: seconds,
        timeout: 30,
        requests: [
          {
            method: spec.method,
            path: spec.path,
            headers,
            ...(bodies
              ? {
                  setupRequest: (request: Record<string, unknown>) => {
                    const chosen = bodies[next++ % bodies.length]!;
                    return { ...request, body: chosen.body, headers: { ...headers, ...chosen.headers } };
                  },
                }
              : {}),
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const sorted = Float64Array.from(latencies).sort();
        const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
        const ok = Object.entries(statusCodes).reduce((sum, [code, count]) => sum + (code.startsWith('2') ? count : 0), 0);
        const total = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
        resolve({
          rps: ok / result.duration,
          ok,
          non2xx: total - ok,
          errors: result.errors,
          statusCodes,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          seconds: result.duration,
        });
      },
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, time: number) => {
      if (status >= 200 && status < 300) latencies.push(time);
    });
  });
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
  const bodies = bodiesFor(spec);
  if (spec.warmup) await run(spec, spec.warmup, bodies);
  const results: LoadResult[] = [];
  for (let i = 0; i < (spec.repeat ?? 1); i++) results.push(await run(spec, spec.duration, bodies));
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`load: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
