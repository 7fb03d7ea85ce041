/** A JSON:API error object as sent on the wire (status is a string, as clients require). */
export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
}

/** An error with an HTTP status; the error middleware turns it into a JSON:API error document. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail?: string,
    readonly errors?: ErrorObject[],
  ) {
    super(detail ?? title);
  }

  toObjects(): ErrorObject[] {
    return this.errors ?? [{ status: String(this.status), title: this.title, detail: this.message }];
  }
}

export class BadRequest extends ApiError {
  constructor(detail: string, parameter?: string) {
    super(400, 'bad request', detail, [
      { status: '400', title: 'bad request', detail, ...(parameter ? { source: { parameter } } : {}) },
    ]);
  }
}

export class Unauthorized extends ApiError {
  constructor() {
    super(401, 'unauthorized', 'A valid API token is required.');
  }
}

export class Forbidden extends ApiError {
  constructor(detail: string) {
    super(403, 'forbidden', detail);
  }
}

export class NotFound extends ApiError {
  constructor(detail = 'The requested resource could not be found, or you are not authorized to access it.') {
    super(404, 'not found', detail);
  }
}

export class Conflict extends ApiError {
  constructor(detail: string) {
    super(409, 'conflict', detail);
  }
}

export class PayloadTooLarge extends ApiError {
  constructor(detail: string) {
    super(413, 'payload too large', detail);
  }
}

/** A budget of the rate limits is spent; the middleware sets Retry-After and the X-RateLimit headers. */
export class TooManyRequests extends ApiError {
  constructor(detail: string) {
    super(429, 'too many requests', detail);
  }
}

/** 422 with one error per invalid attribute; pointer names the attribute (e.g. /data/attributes/name). */
export class Unprocessable extends ApiError {
  constructor(detail: string, pointer?: string, more: ErrorObject[] = []) {
    const first: ErrorObject = { status: '422', title: 'invalid attribute', detail, ...(pointer ? { source: { pointer } } : {}) };
    super(422, 'invalid attribute', detail, [first, ...more]);
  }

  static many(errors: { detail: string; pointer?: string }[]): Unprocessable {
    const [head, ...rest] = errors;
    return new Unprocessable(
      head.detail,
      head.pointer,
      rest.map((e) => ({ status: '422', title: 'invalid attribute', detail: e.detail, ...(e.pointer ? { source: { pointer: e.pointer } } : {}) })),
    );
  }
}

/** An illegal move in a state machine; handlers map it to 409 (or the status the API documents for that refusal). */
export class IllegalTransition extends Error {
  constructor(
    readonly machine: string,
    readonly from: string,
    readonly event: string,
  ) {
    super(`${machine}: cannot ${event} from ${from}`);
  }
}
