import type { VerbArgs } from '../../context.ts';
import { vapidKeys } from './vapidKeys.ts';

export async function getVapidPublicKey({ ctx }: VerbArgs<void>): Promise<{ publicKey: string }> {
  return { publicKey: (await vapidKeys(ctx.services.sql)).publicKey };
}
