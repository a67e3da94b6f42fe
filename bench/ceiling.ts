/**
 * The ingest ceiling: the least a server can do per event. A bare node:http server that parses
 * the JSON body and runs one INSERT into the same events table (same row shape) per request,
 * with no framework, no authentication, no validation, no category or daily count upkeep.
 * The product's ingest figure is reported as a ratio to this one.
 *
 * Its ids come from a sequence of its own, far above anything the bench's organizations reach:
 * cheaper than any correct per-organization allocation, so the ceiling stays a lower bound of
 * the work per event.
 */
import http from 'node:http';
import postgres from 'postgres';

const url = process.env.CEILING_DATABASE_URL;
const organization = process.env.CEILING_ORGANIZATION;
const port = Number(process.env.CEILING_PORT);
if (!url || !organization || !port) throw new Error('CEILING_DATABASE_URL, CEILING_ORGANIZATION and CEILING_PORT are required');
const organizationId: string = organization;

// The same driver and pool size as the server. Pipelining is left at the driver's default:
// each connection carries one autocommit INSERT at a time anyway.
const sql = postgres(url, { max: Number(process.env.CEILING_POOL ?? 20), onnotice: () => {} });

interface Body {
  project: string;
  category: string;
  title: string;
  description?: string;
  icon?: string;
  tags?: unknown;
  metadata?: unknown;
  url?: string;
  user_id?: string;
  notify?: boolean;
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

async function insert(event: Body): Promise<{ id: number; created_at: Date }> {
  const [row] = await sql<{ id: number; created_at: Date }[]>`
    INSERT INTO events (organization_id, id, project_id, category, title, description, icon, tags, metadata, url,
                        user_id, notify)
    VALUES (${organizationId}, nextval('bench_ceiling_event_ids'), ${event.project}, ${event.category}, ${event.title}, ${event.description ?? null}, ${event.icon ?? null},
            ${json(event.tags)}::json, ${json(event.metadata)}::json, ${event.url ?? null}, ${event.user_id ?? null},
            ${event.notify ?? false})
    RETURNING id, created_at`;
  return row!;
}

function reply(response: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

const server = http.createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/healthz') return reply(response, 200, { ok: true });
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    let event: Body;
    try {
      event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
    } catch {
      return reply(response, 400, { error: 'Request body is not valid JSON' });
    }
    insert(event).then(
      (row) => reply(response, 201, { id: row.id, createdAt: row.created_at.toISOString() }),
      (error: unknown) => {
        process.stderr.write(`ceiling: ${error instanceof Error ? error.message : String(error)}\n`);
        reply(response, 500, { error: 'Internal server error' });
      },
    );
  });
});
server.keepAliveTimeout = 75_000;
void sql`CREATE SEQUENCE IF NOT EXISTS bench_ceiling_event_ids AS integer START 1000000000`.then(() => server.listen(port, '127.0.0.1'));

process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void sql.end({ timeout: 5 }).then(() => process.exit(0));
});
