import { type TSchema, Type } from '@sinclair/typebox';

/** `{error}`: the body of every failure. */
const ErrorBody = Type.Object({ error: Type.String() }, { $id: undefined });

/** Response schemas for the failure statuses a route can answer, for the OpenAPI document. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody]));
}

/** `{error, index}`: a refused item of a batch, `index` its place in the batch (from 0); other failures of the route carry no index. */
const ItemErrorBody = Type.Object({ error: Type.String(), index: Type.Optional(Type.Integer({ minimum: 0 })) });

/** Response schemas for the failure statuses of a batch route (see ItemErrorBody). */
export function itemErrors(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ItemErrorBody]));
}

export const Deleted = (idSchema: TSchema) => Type.Object({ id: idSchema, deleted: Type.Literal(true) });
