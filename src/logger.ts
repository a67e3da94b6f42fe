import { pino } from 'pino';

type LogFormat = 'json' | 'pretty';

/**
 * LOG_FORMAT=json or pretty; unset, pretty when stdout is a terminal (a person is reading) and
 * JSON otherwise (a log collector is). Anything else is JSON rather than a refusal to start.
 */
export function logFormat(env: NodeJS.ProcessEnv = process.env, stdoutIsTerminal = Boolean(process.stdout.isTTY)): LogFormat {
  const chosen = env.LOG_FORMAT?.trim().toLowerCase();
  if (chosen === 'pretty') return 'pretty';
  if (chosen === 'json') return 'json';
  return stdoutIsTerminal ? 'pretty' : 'json';
}

/**
 * Secrets never reach the log: keys, cookies, the tokens of hook, invitation and password reset
 * URLs, and the query of the OpenID Connect callback (its authorization code and state) are redacted.
 */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info', format: LogFormat = logFormat()) {
  const options = {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: req.url
          .replace(/\/hook\/[^/?#]+/, '/hook/[redacted]')
          .replace(/\/accept\/[^/?#]+/, '/accept/[redacted]')
          .replace(/\/reset\/[^/?#]+/, '/reset/[redacted]')
          .replace(/^(\/api\/oidc\/callback)\?.*/, '$1?[redacted]'),
        id: req.id,
      }),
    },
  };
  return format === 'pretty' ? pino(options, { write: (line: string) => process.stdout.write(prettyLine(line)) }) : pino(options);
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, or that the pretty line shows in its own place. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'err', 'statusCode', 'responseTime']);

/**
 * One JSON log line as a person reads it: `12:04:05 INFO  [req-1] GET /api/events 201 3ms`, the
 * remaining fields as key=value, and an error's stack below. Kept here rather than pulling in a
 * prettifier dependency: it is a dozen lines.
 */
function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = new Date(Number(entry.time)).toISOString().slice(11, 23);
  const level = (LEVELS[Number(entry.level)] ?? String(entry.level)).padEnd(5);
  const parts = [time, level];
  if (entry.reqId !== undefined) parts.push(`[${fieldText(entry.reqId)}]`);
  const req = entry.req as { method?: string; url?: string } | undefined;
  if (req?.method) parts.push(`${req.method} ${req.url ?? ''}`);
  if (entry.statusCode !== undefined) parts.push(fieldText(entry.statusCode));
  if (typeof entry.responseTime === 'number') parts.push(`${entry.responseTime.toFixed(1)}ms`);
  if (entry.msg !== undefined) parts.push(fieldText(entry.msg));
  for (const [key, value] of Object.entries(entry)) {
    if (!SHOWN.has(key)) parts.push(`${key}=${fieldText(value)}`);
  }
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const stack = err ? `\n    ${(err.stack ?? err.message ?? '').replaceAll('\n', '\n    ')}` : '';
  return `${parts.join(' ')}${stack}\n`;
}

/** A log field as one readable word: strings as they are, anything else as JSON. */
function fieldText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
