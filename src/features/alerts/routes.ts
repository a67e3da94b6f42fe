import { Type } from '@sinclair/typebox';
import type { Ctx } from '../../context.ts';
import type { App } from '../../http/app.ts';
import { Deleted, errors } from '../../http/schemas.ts';
import { createAlert } from './createAlert.ts';
import { deleteAlert } from './deleteAlert.ts';
import { getAlert } from './getAlert.ts';
import { listAlertHistory } from './listAlertHistory.ts';
import { listAlerts } from './listAlerts.ts';
import { muteAlert } from './muteAlert.ts';
import { previewFilter } from './previewFilter.ts';
import {
  Alert,
  AlertIdParams,
  CreateAlertBody,
  FilterPreview,
  FilterPreviewBody,
  HistoryPage,
  HistoryQuery,
  MuteBody,
  ProjectIdParams,
  UpdateAlertBody,
} from './schemas.ts';
import { updateAlert } from './updateAlert.ts';
import { alertProject } from './alertProject.ts';
import { projectIn } from '../../http/routeScope.ts';

const tags = ['alerts'];
const ofAlert = { of: (ctx: Ctx, request: { params: Record<string, string> }) => alertProject({ ctx, input: request.params }), what: 'Alert' };

export default function alertRoutes(app: App) {
  app.post(
    '/api/projects/:projectId/alerts',
    {
      config: { scope: { access: 'write', project: projectIn('params') } },
      schema: {
        tags,
        operationId: 'createAlert',
        summary: 'Create an alert: a rule on the count of matching events in a sliding window',
        params: ProjectIdParams,
        body: CreateAlertBody,
        response: { 201: Alert, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => reply.status(201).send(await createAlert({ ctx: request.ctx, input: { ...request.body, projectId: request.params.projectId } })),
  );

  app.get(
    '/api/projects/:projectId/alerts',
    {
      config: { scope: { access: 'read', project: projectIn('params') } },
      schema: {
        tags,
        operationId: 'listAlerts',
        summary: "A project's alerts, oldest first",
        params: ProjectIdParams,
        response: { 200: Type.Array(Alert), ...errors(401, 404) },
      },
    },
    async (request) => listAlerts({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/api/projects/:projectId/alerts/preview',
    {
      config: { scope: { access: 'write', project: projectIn('params') } },
      schema: {
        tags,
        operationId: 'previewAlertFilter',
        summary: 'How many events a filter matches in the last windowSeconds, now',
        params: ProjectIdParams,
        body: FilterPreviewBody,
        response: { 200: FilterPreview, ...errors(400, 401, 404) },
      },
    },
    async (request) => previewFilter({ ctx: request.ctx, input: { ...request.body, projectId: request.params.projectId } }),
  );

  app.get(
    '/api/alerts/:alertId',
    {
      config: { scope: { access: 'read', project: ofAlert } },
      schema: { tags, operationId: 'getAlert', summary: 'One alert with its state', params: AlertIdParams, response: { 200: Alert, ...errors(401, 404) } },
    },
    async (request) => getAlert({ ctx: request.ctx, input: request.params }),
  );

  app.patch(
    '/api/alerts/:alertId',
    {
      config: { scope: { access: 'write', project: ofAlert } },
      schema: {
        tags,
        operationId: 'updateAlert',
        summary: 'Change an alert; a new filter or condition, or enabling, restarts its window',
        params: AlertIdParams,
        body: UpdateAlertBody,
        response: { 200: Alert, ...errors(400, 401, 404) },
      },
    },
    async (request) => updateAlert({ ctx: request.ctx, input: { ...request.body, alertId: request.params.alertId } }),
  );

  app.post(
    '/api/alerts/:alertId/mute',
    {
      config: { scope: { access: 'write', project: ofAlert } },
      schema: {
        tags,
        operationId: 'muteAlert',
        summary: 'Mute until a time (Unix seconds; null unmutes): transitions are recorded, no events created',
        params: AlertIdParams,
        body: MuteBody,
        response: { 200: Alert, ...errors(400, 401, 404) },
      },
    },
    async (request) => muteAlert({ ctx: request.ctx, input: { alertId: request.params.alertId, until: request.body.until } }),
  );

  app.post(
    '/api/alerts/:alertId/delete',
    {
      config: { scope: { access: 'write', project: ofAlert } },
      schema: {
        tags,
        operationId: 'deleteAlert',
        summary: 'Delete an alert and its history',
        params: AlertIdParams,
        response: { 200: Deleted(Type.String()), ...errors(401, 404) },
      },
    },
    async (request) => deleteAlert({ ctx: request.ctx, input: request.params }),
  );

  app.get(
    '/api/alerts/:alertId/history',
    {
      config: { scope: { access: 'read', project: ofAlert } },
      schema: {
        tags,
        operationId: 'listAlertHistory',
        summary: "An alert's transitions, newest first (keyset pages)",
        params: AlertIdParams,
        querystring: HistoryQuery,
        response: { 200: HistoryPage, ...errors(400, 401, 404) },
      },
    },
    async (request) => listAlertHistory({ ctx: request.ctx, input: { ...request.params, ...request.query } }),
  );
}
