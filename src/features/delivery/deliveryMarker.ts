import crypto from 'node:crypto';
import type { Sql } from '../../db/client.ts';
import { installationSecret } from '../../db/settings.ts';

/**
 * The hop marker every outgoing delivery request carries (decision 175): `<installation
 * marker>.<delivery id>`. An Eventlog incoming hook that receives a request bearing one stores
 * the event without notify, so a destination pointed back at a hook (of this installation or of
 * another Eventlog) cannot turn one event into an endless chain.
 */
export const DELIVERY_MARKER_HEADER = 'eventlog-delivery';
/** The hook's answer to a marked request: why the event was stored without notify. */
export const DELIVERY_NOTE_HEADER = 'eventlog-delivery-note';

const MARKER_SHAPE = /^([a-z0-9]{8,64})\.([A-Za-z0-9_-]{1,64})$/;

/**
 * This installation's marker: random, made once and kept in `settings`, so every process on one
 * database shares it. Not a secret: receivers see it in every request (and a sender able to forge
 * it could as well have sent `notify: false`).
 */
function installationMarker(sql: Sql): Promise<string> {
  return installationSecret(
    sql,
    'delivery_marker',
    () => crypto.randomBytes(12).toString('hex'),
    (value) => value,
  );
}

/** The header value for one delivery (every attempt of it carries the same). */
export async function deliveryMarker(sql: Sql, deliveryId: string): Promise<string> {
  return `${await installationMarker(sql)}.${deliveryId}`;
}

/**
 * Whether a hook request came from an Eventlog delivery, and whose: null when it carries no
 * well-formed marker. Any marker stops the chain, this installation's or another's: two
 * installations pointed at each other would otherwise pass an event back and forth forever.
 */
export async function deliveryOrigin(sql: Sql, header: string | string[] | undefined): Promise<{ ownInstallation: boolean; note: string } | null> {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? MARKER_SHAPE.exec(value.trim()) : null;
  if (!match) return null;
  const ownInstallation = match[1] === (await installationMarker(sql));
  const whose = ownInstallation ? 'this Eventlog installation' : 'another Eventlog installation';
  return { ownInstallation, note: `Stored without notify: the request came from a delivery of ${whose} (no delivery loops)` };
}
