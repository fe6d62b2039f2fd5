import type { FastifyInstance } from 'fastify';

/** One part of a `multipart/form-data` body. */
export interface FormPart {
  name: string;
  fileName?: string;
  contentType?: string;
  data: Buffer;
}

/** The parsed form of a `multipart/form-data` request; routes check for this class to tell it from a JSON body. */
export class MultipartForm {
  constructor(readonly parts: FormPart[]) {}

  file(name: string): FormPart | undefined {
    return this.parts.find((part) => part.name === name && part.fileName !== undefined);
  }

  field(name: string): string | undefined {
    const part = this.parts.find((p) => p.name.toLowerCase() === name.toLowerCase() && p.fileName === undefined);
    return part?.data.toString('utf8');
  }
}

export class MultipartError extends Error {
  readonly statusCode = 400;
}

const HEADER_END = Buffer.from('\r\n\r\n');

function headerParameter(header: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${name}\\*?=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i').exec(header);
  if (!match) return undefined;
  const value = match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2]!.trim();
  // RFC 5987 form: utf-8''name%20with%20spaces
  const extended = /^utf-8''(.*)$/i.exec(value);
  return extended ? decodeURIComponent(extended[1]!) : value;
}

/**
 * Splits a buffered `multipart/form-data` body. The body size is bounded by the route's bodyLimit before this runs,
 * so reading it whole is safe; the few forms the API takes (theme uploads) are small.
 */
export function parseMultipart(body: Buffer, contentTypeHeader: string): MultipartForm {
  const boundary = headerParameter(contentTypeHeader, 'boundary');
  if (!boundary || boundary.length > 200) throw new MultipartError('The multipart body has no boundary.');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let position = body.indexOf(delimiter);
  if (position < 0) throw new MultipartError('The multipart body is malformed.');
  while (position >= 0) {
    const afterDelimiter = position + delimiter.length;
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString() === '--') return new MultipartForm(parts);
    const headerStart = afterDelimiter + 2;
    const headerEnd = body.indexOf(HEADER_END, headerStart);
    if (headerEnd < 0) throw new MultipartError('The multipart body is malformed.');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd);
    if (next < 0) throw new MultipartError('The multipart body is malformed.');
    const headers = body.subarray(headerStart, headerEnd).toString('utf8').split('\r\n');
    const disposition = headers.find((line) => /^content-disposition:/i.test(line)) ?? '';
    const contentType = headers
      .find((line) => /^content-type:/i.test(line))
      ?.replace(/^content-type:\s*/i, '')
      .trim();
    const name = headerParameter(disposition, 'name');
    if (name !== undefined) {
      const fileName = headerParameter(disposition, 'filename');
      parts.push({
        name,
        ...(fileName !== undefined ? { fileName } : {}),
        ...(contentType ? { contentType } : {}),
        data: body.subarray(headerEnd + HEADER_END.length, next),
      });
    }
    position = next + 2;
  }
  throw new MultipartError('The multipart body is malformed.');
}

/**
 * Lets the routes of one plugin scope take `multipart/form-data` bodies of up to `bodyLimit` bytes (parsed into a
 * MultipartForm); routes outside the scope keep refusing them.
 */
export function acceptMultipart(scope: FastifyInstance, bodyLimit: number): void {
  scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    try {
      done(null, parseMultipart(body as Buffer, String(request.headers['content-type'] ?? '')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
