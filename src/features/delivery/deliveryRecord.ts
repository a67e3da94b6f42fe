/** A delivery row as it is first written: by the fan-out, a Test or a replay. */
export interface NewDelivery {
  organizationId: string;
  id: string;
  destinationId: string;
  eventId: number;
  webhookId: string;
  body: string;
  maxAttempts: number;
}
