import { pino } from 'pino';

/** Secrets never reach the log: keys, cookies, and hook tokens in URLs are redacted. */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info') {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: req.url.replace(/\/hook\/[^/?#]+/, '/hook/[redacted]'),
        id: req.id,
      }),
    },
  });
}
