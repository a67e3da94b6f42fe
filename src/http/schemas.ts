import { type TSchema, Type } from '@sinclair/typebox';

/** `{error}`: the body of every failure. */
export const ErrorBody = Type.Object({ error: Type.String() }, { $id: undefined });

/** Response schemas for the failure statuses a route can answer, for the OpenAPI document. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody]));
}

/** A path id that the route checks itself, so a bad one is a 400 with a clear message. */
export const IdParam = (name: string) => Type.Object({ [name]: Type.String() });

export const Deleted = (idSchema: TSchema) => Type.Object({ id: idSchema, deleted: Type.Literal(true) });
