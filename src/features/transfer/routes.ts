import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { App } from '../../http/app.ts';
import { ServiceError } from '../../lib/errors.ts';
import { errors } from '../../http/schemas.ts';
import { exportDocument } from './exportDocument.ts';
import { importDocument } from './importDocument.ts';
import { readImport } from './readImport.ts';
import type { ProjectPlan } from './planImport.ts';
import { formatImportSchemaError } from './rowErrors.ts';
import { ExportDocument, ImportDocument, ImportResult } from './schemas.ts';

const tags = ['export and import'];
/** A whole organization in one request: far above the 1 MiB of ordinary requests. */
const IMPORT_BODY_LIMIT = 256 * 1024 * 1024;

export default function transferRoutes(app: App): void {
  app.get(
    '/api/export',
    { config: { scope: { access: 'read', project: 'listing' } }, schema: { tags, operationId: 'exportOrganization', summary: 'The whole organization (projects, events, insights) as one JSON document', response: { 200: ExportDocument, ...errors(401) } } },
    async (request, reply) => {
      const stream = await exportDocument({ ctx: request.ctx, input: undefined });
      // A stream is sent as it is, never serialized: the 200 schema above only documents it.
      return reply.type('application/json').send(stream as never);
    },
  );

  // The import body is read as it arrives (readImport.ts): its own JSON parser, in its own scope.
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
    const plans = new WeakMap<object, ProjectPlan[]>();
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', async (request: FastifyRequest, payload: Readable) => {
      // Refused from the declared length, before a byte is read.
      if (Number(request.headers['content-length'] ?? 0) > IMPORT_BODY_LIMIT) throw new ServiceError('payload_too_large', 'Request body is too large');
      const read = await readImport(payload, { limit: IMPORT_BODY_LIMIT, parse });
      if (typeof read.outline === 'object' && read.outline !== null) plans.set(read.outline, read.plans);
      return read.outline;
    });
    // Taken once: after the import the checked rows must not outlive it.
    importRoute(scope, (body) => {
      const taken = plans.get(body) ?? [];
      plans.delete(body);
      return taken;
    });
    done();
  });
}

function importRoute(app: App, plansOf: (body: object) => ProjectPlan[]): void {
  app.post(
    '/api/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      // The long body budget and the bound on concurrent imports (http/uploads.ts).
      config: { largeUpload: true, scope: { access: 'write', project: 'organization' } },
      schemaErrorFormatter: formatImportSchemaError,
      schema: {
        tags,
        operationId: 'importOrganization',
        summary: 'Import projects, events and insights as new projects with fresh ids, all or nothing',
        body: ImportDocument,
        response: { 200: ImportResult, ...errors(400, 401, 413) },
      },
    },
    async (request) => importDocument({ ctx: request.ctx, input: plansOf(request.body) }),
  );
}
