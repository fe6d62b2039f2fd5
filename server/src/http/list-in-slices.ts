import { Readable } from 'node:stream';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';

/** A list answer whose items are built a slice at a time, each slice once the one before has been sent. */
export interface ListInSlices<T> {
  total: number;
  sliceCount: number;
  slices: AsyncGenerator<T[]>;
}

/**
 * Answers `{"Total":…,"List":[…]}` as the route's `ListResult` serializer would, but writes each slice as soon as it
 * is built and builds the next only when the socket has taken it: memory holds one slice, not the whole list and its
 * text. A list of one slice is answered as usual (returned for the route's serializer, with a Content-Length).
 *
 * A failure after the first bytes cannot become an error answer any more; the connection is cut instead, so the
 * client sees an incomplete answer rather than a short list that looks whole.
 */
export async function sendListInSlices<T>(reply: FastifyReply, list: ListInSlices<T>, itemSchema: TSchema) {
  if (list.sliceCount <= 1) {
    const only = await list.slices.next();
    return { Total: list.total, List: only.done ? [] : only.value };
  }
  const serialize = reply.compileSerializationSchema(itemSchema) as (item: T) => string;
  async function* text() {
    yield `{"Total":${list.total},"List":[`;
    let separator = '';
    for await (const slice of list.slices) {
      const parts: string[] = [];
      for (const item of slice) parts.push(serialize(item));
      if (!parts.length) continue;
      yield separator + parts.join(',');
      separator = ',';
    }
    yield ']}';
  }
  return reply.type('application/json; charset=utf-8').send(Readable.from(text(), { objectMode: false }));
}
