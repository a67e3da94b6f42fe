import { type TSchema, Type } from '@sinclair/typebox';

/** `{error}`: the body of every failure. */
const ErrorBody = Type.Object({ error: Type.String() }, { $id: undefined });

/** Response schemas for the failure statuses a route can answer, for the OpenAPI document. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody]));
}

export const Deleted = (idSchema: TSchema) => Type.Object({ id: idSchema, deleted: Type.Literal(true) });
