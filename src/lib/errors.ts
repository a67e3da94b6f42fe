/**
 * Domain errors: what went wrong, as a code, and the words a person should read. Verbs, the CLI
 * and services throw these; only `http/errorHandler.ts` knows which HTTP status a code becomes.
 */
export type ErrorCode =
  'invalid' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'payload_too_large' | 'rate_limited' | 'id_space_exhausted' | 'unavailable';

export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidInput extends ServiceError {
  constructor(message: string) {
    super('invalid', message);
  }
}

export class Unauthorized extends ServiceError {
  constructor(message = 'Missing or invalid API key') {
    super('unauthorized', message);
  }
}

export class Forbidden extends ServiceError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

/** Also what another organization's record looks like: existence is never confirmed. */
export class NotFound extends ServiceError {
  constructor(what = 'Resource') {
    super('not_found', `${what} not found`);
  }
}

export class Conflict extends ServiceError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class RateLimited extends ServiceError {
  constructor(
    message: string,
    /** When to try again, for the Retry-After header; absent when the caller cannot know. */
    readonly retryAfterSeconds?: number,
  ) {
    super('rate_limited', message);
  }
}

/** The organization has used every id of a kind (extensions.md, "Ids"); others are unaffected. */
export class IdSpaceExhausted extends ServiceError {
  constructor(what: 'event' | 'insight') {
    super('id_space_exhausted', `This organization has used every ${what} id; nothing was written`);
  }
}

/**
 * One item of a batch refused (extensions.md, "Batch ingestion"): the item's own error, as one
 * event would get it, with the item's place in the batch, which the reply carries as `index`.
 */
export class ItemRefused extends ServiceError {
  constructor(
    readonly index: number,
    cause: ServiceError,
  ) {
    super(cause.code, cause.message);
  }
}
