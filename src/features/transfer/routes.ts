import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { App } from '../../http/app.ts';
import { ServiceError } from '../../lib/errors.ts';
import { errors } from '../../http/schemas.ts';
import { exportDocument } from './exportDocument.ts';
import { importDocument } from './importDocument.ts';
import { ExportDocument, ImportDocument, ImportResult } from './schemas.ts';

const tags = ['export and import'];
/** A whole organization in one request: far above the 1 MiB of ordinary requests. */
const IMPORT_BODY_LIMIT = 256 * 1024 * 1024;

export default function transferRoutes(app: App): void {
  app.get(
    '/api/export',
    {
      config: { scope: { access: 'read', project: 'listing' } },
      schema: {
        tags,
        operationId: 'exportOrganization',
        summary: 'The whole organization (projects, events, insights) as one JSON document',
        response: { 200: ExportDocument, ...errors(401) },
      },
    },
    async (request, reply) => {
      const stream = await exportDocument({ ctx: request.ctx, input: undefined });
      // A stream is sent as it is, never serialized: the 200 schema above only documents it.
      return reply.type('application/json').send(stream as never);
    },
  );

  // The import body is taken whole, then read by the verb while it writes (decision 160): its own
  // JSON parser, in its own scope.
  void app.register((scope, _options, done) => {
    const parseJson = scope.getDefaultJsonParser('error', 'error');
    const parse = (text: string) => {
      let parsed: unknown;
      void parseJson(undefined as never, text, (error, value) => {
        if (error) throw error;
        parsed = value;
      });
      return parsed;
    };
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', async (request: FastifyRequest, payload: Readable) => {
      // Refused from the declared length, before a byte is read.
      if (Number(request.headers['content-length'] ?? 0) > IMPORT_BODY_LIMIT) throw tooLarge();
      return new ImportBody(await takeBody(payload, IMPORT_BODY_LIMIT));
    });
    importRoute(scope, parse);
    done();
  });
}

/** The import's body as it arrived, for the verb to read; what the route's schema describes. */
class ImportBody {
  constructor(readonly chunks: Buffer[]) {}
}

const tooLarge = () => new ServiceError('payload_too_large', 'Request body is too large');

/**
 * The whole body, as the buffers it came in. Taken before the import's transaction begins: a
 * slow upload must not hold the organization's event ids while it trickles in.
 */
async function takeBody(payload: Readable, limit: number): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of payload as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return chunks;
}

function importRoute(app: App, parse: (text: string) => unknown): void {
  app.post(
    '/api/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      // The long body budget and the bound on concurrent imports (http/uploads.ts).
      config: { largeUpload: true, scope: { access: 'write', project: 'organization' } },
      // The verb checks the document against the schema, row by row as it reads it (readImport.ts);
      // the schema below describes the body.
      validatorCompiler: () => () => true,
      schema: {
        tags,
        operationId: 'importOrganization',
        summary: 'Import projects, events and insights as new projects with fresh ids, all or nothing',
        body: ImportDocument,
        response: { 200: ImportResult, ...errors(400, 401, 413) },
      },
    },
    async (request) => {
      const body: unknown = request.body;
      return importDocument({ ctx: request.ctx, input: { body: body instanceof ImportBody ? body.chunks : [], parse } });
    },
  );
}
