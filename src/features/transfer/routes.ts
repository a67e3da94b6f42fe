import type { App } from '../../http/app.ts';
import { errors } from '../../http/schemas.ts';
import { exportDocument } from './exportDocument.ts';
import { importDocument } from './importDocument.ts';
import { formatImportSchemaError } from './rowErrors.ts';
import { ExportDocument, ImportDocument, ImportResult } from './schemas.ts';

const tags = ['export and import'];
/** A whole organization in one request: far above the 1 MiB of ordinary requests. */
const IMPORT_BODY_LIMIT = 256 * 1024 * 1024;

export default function transferRoutes(app: App): void {
  app.get(
    '/api/export',
    { schema: { tags, operationId: 'exportOrganization', summary: 'The whole organization (projects, events, insights) as one JSON document', response: { 200: ExportDocument, ...errors(401) } } },
    async (request, reply) => {
      const stream = await exportDocument({ ctx: request.ctx, input: undefined });
      // A stream is sent as it is, never serialized: the 200 schema above only documents it.
      return reply.type('application/json').send(stream as never);
    },
  );

  app.post(
    '/api/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      // The long body budget and the bound on concurrent imports (http/uploads.ts).
      config: { largeUpload: true },
      schemaErrorFormatter: formatImportSchemaError,
      schema: {
        tags,
        operationId: 'importOrganization',
        summary: 'Import projects, events and insights as new projects with fresh ids, all or nothing',
        body: ImportDocument,
        response: { 200: ImportResult, ...errors(400, 401, 413) },
      },
    },
    async (request) => importDocument({ ctx: request.ctx, input: request.body }),
  );
}
