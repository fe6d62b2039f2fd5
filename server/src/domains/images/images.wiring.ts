import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ImageStore } from './image-store.js';
import { ImagesService } from './images.service.js';
import { ImagesStore } from './images.store.js';

type ImagesDeps = ConstructorParameters<typeof ImagesService>[0];

export interface ImagesDomain {
  /** Image files on disk. */
  store: ImageStore;
  service: ImagesService;
}

/** Builds the image store under the data folder and the download service over the image records. */
export function createImagesDomain(
  deps: { db: Kysely<Database>; home: string } & Pick<ImagesDeps, 'queue' | 'settings' | 'logger' | 'anidbHold'>,
): ImagesDomain {
  const store = new ImageStore(deps.home);
  const service = new ImagesService({
    records: new ImagesStore(deps.db),
    store,
    queue: deps.queue,
    settings: deps.settings,
    logger: deps.logger,
    anidbHold: deps.anidbHold,
  });
  return { store, service };
}
