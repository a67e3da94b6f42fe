import type { Ctx } from '../../context.ts';
import { Forbidden } from '../../lib/errors.ts';

/** A digest belongs to a dashboard member: an API key gets 403 (extensions.md, "Email"). */
export function signedInMember(ctx: Ctx): string {
  if (ctx.actor.kind !== 'user') throw new Forbidden('Digests belong to a dashboard member: sign in to the dashboard to read or change yours');
  return ctx.actor.userId;
}
