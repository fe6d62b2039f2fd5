import type { FastifyReply } from 'fastify';

/** Shoko answers string results as raw `text/plain`, not JSON-quoted. */
export function sendText(reply: FastifyReply, text: string, status = 200) {
  return reply.code(status).type('text/plain; charset=utf-8').send(text);
}
