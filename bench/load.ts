/**
 * The load generator: its own process, so that it never shares an event loop with the server
 * it measures. Reads one JSON spec from argv, drives autocannon, prints the runs' results as one JSON line.
 *
 * Latency percentiles are computed here from every response time autocannon reports (in
 * fractional milliseconds): its own histogram keeps whole milliseconds, too coarse for a
 * 3 ms target.
 *
 * A load held at a rate (`spec.rate`) is sent by paced() instead: autocannon's rate lets each
 * connection send its share of a second as fast as it is answered, then wait for the next second,
 * so "2,000 a second" was a burst at full speed every second, and its latencies were those of a
 * saturated server.
 */
import http from 'node:http';
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

/**
 * Requests sent at evenly spaced times (`spec.rate` a second, to the millisecond) over at most
 * `spec.connections` kept-alive connections. Each latency counts from the time its request was
 * due, not from when a free connection sent it, so a server that falls behind is charged for the
 * wait it causes (no coordinated omission).
 */
function paced(spec: LoadSpec, seconds: number, bodies: RequestBody[] | undefined): Promise<LoadResult> {
  const rate = spec.rate!;
  const planned = Math.ceil(rate * seconds);
  const target = new URL(spec.path, spec.origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const baseHeaders = { ...(bodies ? { 'content-type': 'application/json' } : {}), ...spec.headers };
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let sent = 0;
  let open = 0;
  let next = 0;
  const start = performance.now();
  const due = (index: number) => start + (index * 1000) / rate;
  return new Promise((resolve) => {
    const finish = () => {
      agent.destroy();
      const elapsed = (performance.now() - start) / 1000;
      const sorted = Float64Array.from(latencies).sort();
      const ok = Object.entries(statusCodes).reduce((sum, [code, count]) => sum + (code.startsWith('2') ? count : 0), 0);
      const total = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
      resolve({ rps: ok / elapsed, ok, non2xx: total - ok, errors, statusCodes, p50: percentile(sorted, 50), p99: percentile(sorted, 99), seconds: elapsed });
    };
    const send = (dueAt: number) => {
      const chosen = bodies?.[next++ % bodies.length];
      open++;
      const request = http.request(target, { method: spec.method, agent, headers: { ...baseHeaders, ...chosen?.headers } }, (response) => {
        response.resume();
        response.on('end', () => {
          const code = String(response.statusCode);
          statusCodes[code] = (statusCodes[code] ?? 0) + 1;
          if (code.startsWith('2')) latencies.push(performance.now() - dueAt);
          if (--open === 0 && sent >= planned) finish();
        });
      });
      request.on('error', () => {
        errors++;
        if (--open === 0 && sent >= planned) finish();
      });
      request.end(chosen?.body);
    };
    const tick = () => {
      const now = performance.now();
      while (sent < planned && due(sent) <= now) send(due(sent++));
      if (sent < planned) setTimeout(tick, Math.max(0, due(sent) - performance.now()));
      else if (open === 0) finish();
    };
    tick();
  });
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
  const bodies = bodiesFor(spec);
  const load = spec.rate ? paced : run;
  if (spec.warmup) await load(spec, spec.warmup, bodies);
  const results: LoadResult[] = [];
  for (let i = 0; i < (spec.repeat ?? 1); i++) results.push(await load(spec, spec.duration, bodies));
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`load: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
