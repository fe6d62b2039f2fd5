import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ListResult } from '@shoko-ts/contract';
import { sendListInSlices, type ListInSlices } from './list-in-slices.js';

const Item = Type.Object({ ID: Type.Integer(), Name: Type.String(), Tag: Type.Optional(Type.String()) });
type Item = { ID: number; Name: string; Tag?: string; Extra?: string };

function listOf(slices: Item[][], failAt = -1): ListInSlices<Item> {
  async function* generate() {
    for (let i = 0; i < slices.length; i++) {
      if (i === failAt) throw new Error('the database went away');
      yield slices[i];
    }
  }
  return { total: slices.flat().length, sliceCount: slices.length, slices: generate() };
}

describe('sendListInSlices', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());

  async function serve(list: () => ListInSlices<Item>) {
    app = Fastify();
    app.get('/list', { schema: { response: { 200: ListResult(Item) } } }, (_request, reply) => sendListInSlices(reply, list(), Item));
    app.get('/whole', { schema: { response: { 200: ListResult(Item) } } }, async () => {
      const all: Item[] = [];
      for await (const slice of list().slices) all.push(...slice);
      return { Total: all.length, List: all };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  const items = (from: number, count: number): Item[] =>
    Array.from({ length: count }, (_, i) => ({
      ID: from + i,
      Name: `Ep "${from + i}" – ✓`,
      Extra: 'not in the schema',
      ...(i % 2 ? { Tag: 't' } : {}),
    }));

  it('writes the slices as the route serializer writes the whole list, without a Content-Length', async () => {
    const slices = [items(1, 3), [], items(4, 1), items(5, 2)];
    const base = await serve(() => listOf(slices));
    const streamed = await fetch(`${base}/list`);
    const whole = await fetch(`${base}/whole`);
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(streamed.headers.get('content-length')).toBeNull();
    expect(whole.headers.get('content-length')).not.toBeNull();
    const text = await streamed.text();
    expect(text).toBe(await whole.text());
    expect(JSON.parse(text).List.map((item: Item) => item.ID)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(text).not.toContain('not in the schema');
  });

  it('answers a list of one slice (or none) as usual, with its length', async () => {
    const base = await serve(() => listOf([items(1, 2)]));
    const one = await fetch(`${base}/list`);
    expect(one.headers.get('content-length')).not.toBeNull();
    expect(await one.json()).toEqual({ Total: 2, List: items(1, 2).map(({ Extra: _extra, ...rest }) => rest) });
    await app.close();
    const empty = await fetch(`${await serve(() => listOf([]))}/list`);
    expect(await empty.json()).toEqual({ Total: 0, List: [] });
  });

  it('cuts the connection when a later slice fails, so no short list looks whole', async () => {
    const base = await serve(() => listOf([items(1, 2), items(3, 2), items(5, 2)], 2));
    const response = await fetch(`${base}/list`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });
});
