import { ownGroups } from './cpu.ts';

/** One line of the results table. Figures are medians over the runs. */
export interface Row {
  id: string;
  label: string;
  /** The headline figure, formatted. */
  result: string;
  /** Milliseconds. */
  p50?: number;
  p99?: number;
  target?: string;
  /** Whether the target is met; undefined when there is no target or no figure. */
  met?: boolean;
  /** Cores used during the measurement, by process group (median over runs). */
  cpu?: Record<string, number> | null;
  /** Raw figures for --json. */
  data?: Record<string, unknown>;
}

export interface Header {
  date: string;
  machine: { cores: number; model: string; memoryGB: number; os: string; node: string };
  /** 1-minute load average before and after: other work on the machine skews every figure. */
  load: { before: number; after?: number };
  store: string;
  dataset: string;
  method: string;
  revision: string;
}

const ms = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '' : value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(1)} ms`;

export const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

export function formatTable(header: Header, rows: Row[]): string {
  const lines = [
    `Eventlog benchmark, ${header.date} (${header.revision})`,
    `machine: ${header.machine.cores} cores (${header.machine.model}), ${header.machine.memoryGB} GB RAM, ${header.machine.os}, Node ${header.machine.node}`,
    `load:    1-minute load average ${header.load.before.toFixed(2)} before, ${header.load.after?.toFixed(2) ?? '?'} after (other work on the machine slows every figure)`,
    `store:   ${header.store}`,
    `data:    ${header.dataset}`,
    `method:  ${header.method}`,
    '',
  ];
  const cells = rows.map((row) => [row.label, row.result, ms(row.p50), ms(row.p99), row.target ?? '', row.met === undefined ? '' : row.met ? 'yes' : 'NO']);
  const titles = ['Measurement', 'Result', 'p50', 'p99', 'Target', 'Met'];
  const widths = titles.map((title, i) => Math.max(title.length, ...cells.map((c) => [...c[i]!].length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v + ' '.repeat(widths[i]! - [...v].length)).join(' | ')} |`;
  lines.push(line(titles), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line));
  const withCpu = rows.filter((row) => row.cpu);
  if (withCpu.length) {
    lines.push(
      '',
      `CPU during each measurement, in cores of ${header.machine.cores} (server: the Node process; database: PostgreSQL's connections; database background: autovacuum, the checkpointer and writers; other: the rest of the machine):`,
    );
    const width = Math.max(...withCpu.map((row) => [...row.label].length));
    for (const row of withCpu) {
      const shares = Object.entries(row.cpu!)
        .map(([name, cores]) => `${name} ${cores.toFixed(2)}`)
        .join(', ');
      lines.push(`  ${row.label.padEnd(width)}  ${shares}`);
    }
    // CPU time per request does not depend on how busy the rest of the machine is, unlike req/s.
    const perRequest = withCpu.filter((row) => typeof row.data?.rps === 'number' && row.data.rps > 0);
    if (perRequest.length) {
      lines.push('', 'CPU time per request, in µs (less sensitive to other work on the machine than req/s):');
      for (const row of perRequest) {
        const rps = row.data!.rps as number;
        const groups = ownGroups(row.cpu!);
        const total = groups.reduce((sum, [, cores]) => sum + cores, 0);
        const parts = groups.filter(([, cores]) => cores > 0.005).map(([name, cores]) => `${name} ${Math.round((cores * 1e6) / rps)}`);
        const loadGenerator = row.cpu!['load generator'] ?? 0;
        const loadGeneratorNote = loadGenerator > 0.005 ? `; load generator ${Math.round((loadGenerator * 1e6) / rps)}, not in the total` : '';
        lines.push(`  ${row.label.padEnd(width)}  ${parts.join(', ')}; total ${Math.round((total * 1e6) / rps)}${loadGeneratorNote}`);
      }
    }
  }
  return lines.join('\n');
}
