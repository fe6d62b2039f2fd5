import { randomBytes } from 'node:crypto';

const RFC = 'https://tools.ietf.org/html/rfc9110';
const TYPE_BY_STATUS: Record<number, string> = {
  400: `${RFC}#section-15.5.1`,
  401: `${RFC}#section-15.5.2`,
  403: `${RFC}#section-15.5.4`,
  404: `${RFC}#section-15.5.5`,
  409: `${RFC}#section-15.5.10`,
  413: `${RFC}#section-15.5.14`,
  429: 'https://tools.ietf.org/html/rfc6585#section-4',
  500: `${RFC}#section-15.6.1`,
  502: `${RFC}#section-15.6.3`,
  503: `${RFC}#section-15.6.4`,
  507: 'https://tools.ietf.org/html/rfc4918#section-11.5',
};
const TITLE_BY_STATUS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Content Too Large',
  429: 'Too Many Requests',
  500: 'An error occurred while processing your request.',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

export type FieldErrors = Record<string, string[]>;

export function traceId(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
}

export function validationProblemBody(errors: FieldErrors) {
  return {
    type: TYPE_BY_STATUS[400],
    title: 'One or more validation errors occurred.',
    status: 400,
    errors,
    traceId: traceId(),
  };
}

export function problemBody(status: number, detail?: string) {
  return {
    type: TYPE_BY_STATUS[status] ?? `${RFC}#section-15`,
    title: TITLE_BY_STATUS[status] ?? 'Error',
    status,
    ...(detail ? { detail } : {}),
    traceId: traceId(),
  };
}

/**
 * An error that knows its HTTP response. Services throw these; the app's error handler writes them.
 * `kind` decides the body: plain text (Shoko's `BadRequest("text")`), a validation problem, a problem
 * details object, or nothing at all.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly kind: 'text' | 'validation' | 'problem' | 'empty',
    message: string,
    readonly fieldErrors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const textError = (status: number, message: string) => new HttpError(status, 'text', message);
export const badRequest = (message: string) => textError(400, message);
export const notFound = (message: string) => textError(404, message);
export const conflict = (message: string) => textError(409, message);
export const emptyError = (status: number) => new HttpError(status, 'empty', '');
export const problemError = (status: number, detail?: string, headers?: Record<string, string>) =>
  new HttpError(status, 'problem', detail ?? '', undefined, headers);

export function validationError(field: string, ...messages: string[]): HttpError;
export function validationError(errors: FieldErrors): HttpError;
export function validationError(fieldOrErrors: string | FieldErrors, ...messages: string[]): HttpError {
  const errors = typeof fieldOrErrors === 'string' ? { [fieldOrErrors]: messages } : fieldOrErrors;
  return new HttpError(400, 'validation', Object.values(errors).flat().join(' '), errors);
}

/** Collects field errors and throws them together, so a client learns every problem of a request at once. */
export class FieldErrorCollector {
  readonly errors: FieldErrors = {};
  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw validationError(this.errors);
  }
}
