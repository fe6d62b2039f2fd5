import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './types.js';
import { HttpError, problemBody, validationProblemBody, type FieldErrors } from './problem.js';
import { sendText } from './reply.js';
import { dbFaultOf, type DbFault } from '../db/db-faults.js';

/** What a client is told when a fault of the database or its disk failed its request: the status, and why. */
const FAULT_PROBLEMS: Record<DbFault, { status: number; detail: string }> = {
  'disk-full': {
    status: 507,
    detail: 'The data disk is full: the server cannot save anything until space is freed. Reading still works.',
  },
  'connection-lost': { status: 503, detail: 'The database connection was lost; try again in a moment.' },
  busy: { status: 503, detail: 'The database is busy; try again in a moment.' },
};

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const fieldName = (error: AjvError): string => {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required') {
    const missing = String(error.params.missingProperty ?? '');
    return path ? `${path}.${missing}` : missing;
  }
  return path || 'Body';
};

const messageFor = (error: AjvError, field: string): string => {
  const leaf = field.split('.').pop() ?? field;
  switch (error.keyword) {
    case 'required':
      return `The ${leaf} field is required.`;
    case 'minimum':
    case 'maximum':
      return `The field ${leaf} ${error.message}.`;
    case 'type':
      return `The value is not valid for ${leaf}: ${error.message}.`;
    default:
      return `${leaf} ${error.message ?? 'is invalid'}.`;
  }
};

/** Turns Fastify/ajv validation failures into a ValidationProblemDetails body keyed by the offending field. */
export function validationErrors(errors: AjvError[], context: string | undefined): FieldErrors {
  const result: FieldErrors = {};
  for (const error of errors) {
    // Union schemas report one error per branch; the first is enough for a field.
    const field = context === 'body' || !context ? fieldName(error) : fieldName(error) || context;
    (result[field] ??= []).push(messageFor(error, field));
  }
  for (const key of Object.keys(result)) result[key] = [...new Set(result[key])];
  return result;
}

/** Maps every thrown error to the contract's shapes; nothing internal (stack traces, SQL) reaches a client. */
export function registerErrorHandling(app: App, options: { onDatabaseFault?: (error: unknown) => void } = {}) {
  app.setErrorHandler((error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      switch (error.kind) {
        case 'text':
          return sendText(reply, error.message, error.status);
        case 'validation':
          return reply
            .code(400)
            .type('application/problem+json')
            .send(validationProblemBody(error.fieldErrors ?? {}));
        case 'problem':
          return reply
            .code(error.status)
            .type('application/problem+json')
            .send(problemBody(error.status, error.message || undefined));
        case 'empty':
          return reply.code(error.status).send();
      }
    }
    const fastifyError = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
    if (fastifyError.validation) {
      return reply
        .code(400)
        .type('application/problem+json')
        .send(validationProblemBody(validationErrors(fastifyError.validation, fastifyError.validationContext)));
    }
    const fault = dbFaultOf(error);
    if (fault) {
      // Not a bug: the request may succeed later, and the console says what is wrong instead of a bare 500.
      options.onDatabaseFault?.(error);
      request.log.warn({ err: error, url: request.url, method: request.method }, 'A request met a fault of the database');
      const { status, detail } = FAULT_PROBLEMS[fault];
      return reply.code(status).header('retry-after', '5').type('application/problem+json').send(problemBody(status, detail));
    }
    const status = fastifyError.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Malformed JSON, empty bodies, unsupported media types, oversized bodies.
      return reply
        .code(status)
        .type('application/problem+json')
        .send(status === 400 ? validationProblemBody({ Body: [fastifyError.message] }) : problemBody(status, fastifyError.message));
    }
    request.log.error({ err: error, url: request.url, method: request.method }, 'Unhandled error while serving a request');
    return reply.code(500).send();
  });
}
