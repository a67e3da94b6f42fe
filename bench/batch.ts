/**
 * POST /api/events/batch in the ingest section (extensions.md, "Batch ingestion"): batches of 100
 * and of 1,000 events over 20 connections, as events/s and CPU per event, against the single
 * route's and the import's of the same run. Targets (issue 48): batches of 100 at least 8× the
 * single route's events/s at most 0.2× its CPU per event; batches of 1,000 at least 60% of the
 * import's events/s.
 */
import type { CpuShares } from './cpu.ts';
import { medianShares } from './cpu.ts';
import { type LoadResult, summarize } from './measure.ts';
import { type Row, thousands } from './report.ts';

export const BATCH_SIZES = [100, 1000] as const;
export const BATCH_CONNECTIONS = 20;

/** A run's figures counted in events rather than requests. */
export const inEvents = (run: LoadResult, size: number): LoadResult => ({ ...run, rps: run.rps * size, ok: run.ok * size });

export function batchRow(size: number, runs: LoadResult[], cpu: Array<CpuShares | null>, cpuMicros: number | undefined): Row {
  const events = runs.map((run) => inEvents(run, size));
  const summary = summarize(events);
  const requests = summarize(runs);
  const problems = requests.non2xx || requests.errors ? ` (${requests.non2xx} non-2xx, ${requests.errors} errors)` : '';
  return {
    id: `ingest.batch${size}`,
    label: `Ingest POST /api/events/batch, ${thousands(size)} a request`,
    result: `${thousands(summary.rps)} events/s (${thousands(requests.rps)} requests/s, ${BATCH_CONNECTIONS} connections)${cpuMicros === undefined ? '' : `, ${Math.round(cpuMicros)} µs CPU per event`}${problems}`,
    p50: requests.p50,
    p99: requests.p99,
    cpu: medianShares(cpu),
    // `rps` in events, so the report's "CPU time per request" line reads per event.
    data: { ...summary, requestsPerSecond: requests.rps, size, cpuMicros, runsDetail: runs },
  };
}

/** Batches of 100 against the single route: the events/s and CPU-per-event targets. */
export function batchVersusSingle(batch: Row, single: Row, batchCpu: number | undefined, singleCpu: number | undefined): Row {
  const rate = (batch.data!.rps as number) / (single.data!.rps as number);
  const cost = batchCpu !== undefined && singleCpu !== undefined ? batchCpu / singleCpu : undefined;
  return {
    id: 'ingest.batch100VersusApi',
    label: 'Batches of 100 against POST /api/events',
    result: `${rate.toFixed(1)}× its events/s${cost === undefined ? '' : `, ${cost.toFixed(2)}× its CPU per event (${Math.round(batchCpu!)} against ${Math.round(singleCpu!)} µs)`}`,
    target: '≥ 8× events/s, ≤ 0.2× CPU per event',
    met: cost === undefined ? undefined : rate >= 8 && cost <= 0.2,
    data: { rateRatio: rate, cpuRatio: cost },
  };
}

/** Batches of 1,000 against the import of the same run (its row `import`). */
export function batchVersusImport(rows: Row[], importEvents: number): Row | undefined {
  const batch = rows.find((row) => row.id === 'ingest.batch1000');
  const imported = rows.find((row) => row.id === 'import');
  const seconds = imported?.data?.seconds;
  if (!batch || typeof seconds !== 'number') return undefined;
  const importRate = importEvents / seconds;
  const ratio = (batch.data!.rps as number) / importRate;
  return {
    id: 'ingest.batch1000VersusImport',
    label: 'Batches of 1,000 against the import',
    result: `${(ratio * 100).toFixed(0)}% of its ${thousands(importRate)} events/s`,
    target: '≥ 60%',
    met: ratio >= 0.6,
    data: { ratio, importEventsPerSecond: importRate },
  };
}
