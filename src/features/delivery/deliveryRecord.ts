/** A delivery row as it is first written: by the fan-out, a Test or a replay. */
export interface NewDelivery {
  organizationId: string;
  id: string;
  destinationId: string;
  eventId: number;
  webhookId: string;
  body: string;
  maxAttempts: number;
  /** A group's events (its window's first one); null for a delivery of one event. */
  eventIds?: number[] | null;
  /** Due this long after now: a group's window. */
  delayMs?: number;
}
