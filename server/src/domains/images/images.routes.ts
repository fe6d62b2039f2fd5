import fs from 'node:fs';
import { ImageEnabledBody, ImageParams, RandomImageMetadataQuery, RandomImageParams } from '@shoko-ts/contract';
import type { FastifyReply } from 'fastify';
import type { App } from '../../http/types.js';
import { notFound, validationError } from '../../http/problem.js';
import { parseImageSource, parseImageType, type ImageSource, type ImageType } from './image-store.js';
import type { ImagesService } from './images.service.js';

const NOT_FOUND = 'The requested resource does not exist.';
const NO_RANDOM = 'Unable to find a random image to send.';
const tags = ['Image'];

function imageTypeOrError(text: string, field: string): ImageType {
  const type = parseImageType(text);
  if (!type) throw validationError(field, `The value '${text}' is not valid.`);
  return type;
}

function imageSourceOrError(text: string, field: string, message = `The value '${text}' is not valid.`): ImageSource {
  const source = parseImageSource(text);
  if (!source) throw validationError(field, message);
  return source;
}

/** The Source of a preferred-image body (series and episode PUT …/Images/:imageType), or the 400 naming it. */
export const preferredImageSourceOf = (text: string): ImageSource =>
  imageSourceOrError(text, 'Source', `The value '${text}' is not valid for Source.`);

function randomTypeOrError(text: string): ImageType {
  const type = imageTypeOrError(text, 'imageType');
  if (type === 'Avatar') throw validationError('imageType', 'Unsupported image type for random image.');
  return type;
}

/**
 * Image bytes and metadata. Everything but the Enabled switch is anonymous so `<img>` tags and the login page work.
 * No random image to send is a 500 with Shoko's text (contract collection.md, ImageController): the consoles fall back to
 * their bundled picture on any error, and clients that tell "no such type" (400) from "none yet" read the status.
 */
export function registerImageRoutes(app: App, deps: { images: ImagesService }) {
  const sendFile = (reply: FastifyReply, file: { file: string; contentType: string }) =>
    reply.header('Content-Type', file.contentType).header('Cache-Control', 'public,max-age=3600').send(fs.createReadStream(file.file));

  app.get(
    '/api/v3/Image/Random/:imageType',
    { config: { auth: 'none', initFriendly: true }, schema: { tags, params: RandomImageParams } },
    async (request, reply) => {
      const type = randomTypeOrError(request.params.imageType);
      const image = await deps.images.random(type, { includeRestricted: 'false', attempts: 6 });
      const file = image && deps.images.find(image.Source, type, image.ID);
      if (!file) return reply.code(500).type('text/plain').send(NO_RANDOM);
      return sendFile(reply, file);
    },
  );

  app.get(
    '/api/v3/Image/Random/:imageType/Metadata',
    {
      config: { auth: 'none', initFriendly: true },
      schema: {
        tags,
        params: RandomImageParams,
        querystring: RandomImageMetadataQuery,
      },
    },
    async (request, reply) => {
      const type = randomTypeOrError(request.params.imageType);
      const include = (request.query.includeRestricted ?? 'false').toLowerCase();
      if (include !== 'true' && include !== 'false' && include !== 'only')
        throw validationError('includeRestricted', `The value '${request.query.includeRestricted}' is not valid.`);
      const image = await deps.images.random(type, { includeRestricted: include, attempts: request.query.maxAttempts });
      if (!image) return reply.code(500).type('text/plain').send(NO_RANDOM);
      return image;
    },
  );

  app.get(
    '/api/v3/Image/:source/:type/:value',
    {
      config: { auth: 'none', initFriendly: true },
      schema: { tags, params: ImageParams },
    },
    async (request, reply) => {
      const source = imageSourceOrError(request.params.source, 'source');
      const type = imageTypeOrError(request.params.type, 'type');
      const file = deps.images.find(source, type, request.params.value);
      if (!file) throw notFound(NOT_FOUND);
      return sendFile(reply, file);
    },
  );

  app.post(
    '/api/v3/Image/:source/:type/:value/Enabled',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        params: ImageParams,
        body: ImageEnabledBody,
      },
    },
    async (request, reply) => {
      const source = imageSourceOrError(request.params.source, 'source');
      const type = imageTypeOrError(request.params.type, 'type');
      if (type === 'Avatar') throw validationError('type', 'Avatars cannot be disabled.');
      if (!deps.images.has(source, type, request.params.value)) throw notFound(NOT_FOUND);
      await deps.images.setEnabled(source, type, request.params.value, request.body.Enabled);
      return reply.code(204).send();
    },
  );
}
