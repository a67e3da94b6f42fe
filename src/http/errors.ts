/** Domain errors carry the HTTP status they map to; the one error handler turns them into {error}. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

export class Unauthorized extends HttpError {
  constructor(message = 'Missing or invalid API key') {
    super(401, message);
  }
}

export class Forbidden extends HttpError {
  constructor(message: string) {
    super(403, message);
  }
}

/** Also what another organization's record looks like: existence is never confirmed. */
export class NotFound extends HttpError {
  constructor(what = 'Resource') {
    super(404, `${what} not found`);
  }
}

export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(message = 'Request body is too large') {
    super(413, message);
  }
}

export class TooManyRequests extends HttpError {
  constructor(message: string) {
    super(429, message);
  }
}

/** The organization has used every id of a kind (extensions.md, "Ids"); others are unaffected. */
export class IdSpaceExhausted extends HttpError {
  constructor(what: 'event' | 'insight') {
    super(507, `This organization has used every ${what} id; nothing was written`);
  }
}
