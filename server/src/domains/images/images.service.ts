/**
 * DESIGN — images domain: image bytes and metadata (`/api/v3/Image/*`): downloads of AniDB and TMDB images as queued
 * jobs, random images for the login page and dashboard, and the Enabled switch. Files on disk: image-store.ts; SQL:
 * images.store.ts (TMDB image lists, disabled images, whose series an image belongs to). Routes: images.routes.ts. The
 * metadata and tmdb domains ask it to queue downloads; the series and episodes domains build their image lists from
 * `model()` and image-lists.ts (Preferred/Disabled flags, lists per type, the main image).
 */
import type { Logger } from 'pino';
import { JobPriority, PermanentJobError, type JobDefinition } from '../../jobs/job.js';
import type { QueueService } from '../../jobs/queue.service.js';
import type { SettingsService } from '../settings/index.js';
import type { ImageSource, ImageStore, ImageType } from './image-store.js';
import type { ImagesStore } from './images.store.js';
import { TmdbRateLimiter } from '../../providers/tmdb/rate-limiter.js';
import { AniDBImagePacer } from './anidb-image-pacer.js';
import { isDiskFullError } from '../../db/db-faults.js';

const DEFAULT_ANIDB_IMAGE_URL = 'https://cdn.anidb.net/images/main';
const DEFAULT_TMDB_IMAGE_URL = 'https://image.tmdb.org/t/p/original';
const PICTURE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const TMDB_FILE_PATH = /^\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

interface DownloadPayload {
  source: 'AniDB' | 'TMDB';
  type: ImageType;
  id: number;
  /** AniDB: the picture file name; TMDB: the image's file path. */
  remote: string;
}

export interface ImageModel {
  ID: number;
  Type: ImageType;
  Source: ImageSource;
  LanguageCode: string | null;
  RelativeFilepath: string | null;
  Preferred: boolean;
  Disabled: boolean;
  Width: number | null;
  Height: number | null;
  Series?: { ID: number; Name: string };
}

/** The per-type TMDB download settings: on/off and how many. */
const TMDB_LIMITS: Record<
  string,
  {
    enabled: 'AutoDownloadPosters' | 'AutoDownloadBackdrops' | 'AutoDownloadLogos';
    max: 'MaxAutoPosters' | 'MaxAutoBackdrops' | 'MaxAutoLogos';
  }
> = {
  Poster: { enabled: 'AutoDownloadPosters', max: 'MaxAutoPosters' },
  Backdrop: { enabled: 'AutoDownloadBackdrops', max: 'MaxAutoBackdrops' },
  Logo: { enabled: 'AutoDownloadLogos', max: 'MaxAutoLogos' },
};

/**
 * Image downloads (AniDB pictures from its image CDN, TMDB images) as queued jobs into the image store, and the
 * metadata the API shows about stored images.
 */
export class ImagesService {
  /** TMDB images (and download jobs queued before AniDB pictures had their own kind). */
  readonly job: JobDefinition<DownloadPayload>;
  /** AniDB pictures: paced by `anidbImages` and held while AniDB is banned or backing off. */
  readonly anidbJob: JobDefinition<DownloadPayload>;
  /** One picture at a time from AniDB's image server, with pauses and back-off. */
  readonly anidbImages: AniDBImagePacer;
  /** TMDB's image server on TMDB's own limits. */
  private readonly tmdbImages: TmdbRateLimiter;
  /** Pictures the remote answered 404 for in this process: not asked again until a restart. */
  private readonly missing = new Set<string>();

  constructor(
    private readonly deps: {
      /** Image metadata in the database. */
      records: ImagesStore;
      /** Image files on disk. */
      store: ImageStore;
      queue: QueueService;
      settings: SettingsService;
      logger: Logger;
      fetch?: typeof fetch;
      /** Why AniDB must not be asked now (its ban or back-off), null when it may. */
      anidbHold?: () => string | null;
      /** Paces AniDB pictures (the bench passes one on its fake clock). */
      anidbImages?: AniDBImagePacer;
      tmdbImages?: TmdbRateLimiter;
    },
  ) {
    this.anidbImages =
      deps.anidbImages ?? new AniDBImagePacer({ anidbHold: deps.anidbHold ?? (() => null), onResume: () => deps.queue.recheckHolds() });
    this.tmdbImages = deps.tmdbImages ?? new TmdbRateLimiter();
    this.job = {
      kind: 'DownloadImageJob',
      type: 'Download Image',
      title: 'Downloading Image',
      group: 'Images',
      priority: JobPriority.Maintenance,
      key: (p) => `${p.source}/${p.type}/${p.id}`,
      details: (p) => ({ Source: p.source, Type: p.type, ID: p.id }),
      run: (p) => this.download(p),
    };
    this.anidbJob = {
      ...this.job,
      kind: 'DownloadAniDBImageJob',
      type: 'Download AniDB Image',
      title: 'Downloading AniDB Image',
    };
    deps.queue.register(this.job);
    deps.queue.register(this.anidbJob);
    deps.queue.addHold({ name: 'AniDBImageFilter', kinds: [this.anidbJob.kind], reason: () => this.anidbImages.hold() });
  }

  /** Queues an AniDB picture (anime poster, character, creator) unless it is stored already. */
  async queueAniDBImage(image: { type: 'Poster' | 'Character' | 'Staff'; id: number; picture: string | null }): Promise<void> {
    if (!image.picture || !PICTURE_NAME.test(image.picture) || this.deps.store.has('AniDB', image.type, image.id)) return;
    if (this.missing.has(`AniDB/${image.type}/${image.id}`)) return;
    await this.deps.queue.enqueue(this.anidbJob, { source: 'AniDB', type: image.type, id: image.id, remote: image.picture });
  }

  /** The TMDB hook: the images of a refreshed show or movie, as many per type as the TMDB settings allow. */
  async queueTmdbImages(parent: { type: 'Show' | 'Movie'; id: number }): Promise<void> {
    const settings = this.deps.settings.current.TMDB;
    const rows = await this.deps.records.tmdbImagesOf(parent);
    const taken = new Map<string, number>();
    for (const row of rows) {
      const limit = TMDB_LIMITS[row.image_type];
      if (!limit || !settings[limit.enabled]) continue;
      const count = taken.get(row.image_type) ?? 0;
      if (settings[limit.max] > 0 && count >= settings[limit.max]) continue;
      taken.set(row.image_type, count + 1);
      if (!TMDB_FILE_PATH.test(row.file_path) || this.deps.store.has('TMDB', row.image_type as ImageType, row.id)) continue;
      if (this.missing.has(`TMDB/${row.image_type}/${row.id}`)) continue;
      await this.deps.queue.enqueue(this.job, { source: 'TMDB', type: row.image_type as ImageType, id: row.id, remote: row.file_path });
    }
  }

  private async download({ source, type, id, remote }: DownloadPayload): Promise<void> {
    if (this.deps.store.has(source, type, id)) return;
    const base =
      source === 'AniDB'
        ? process.env.SHOKO_ANIDB_IMAGE_URL?.trim() || DEFAULT_ANIDB_IMAGE_URL
        : process.env.SHOKO_TMDB_IMAGE_URL?.trim() || DEFAULT_TMDB_IMAGE_URL;
    const url = `${base.replace(/\/+$/, '')}${source === 'AniDB' ? '/' : ''}${remote}`;
    const { status, bytes } =
      source === 'AniDB' ? await this.anidbImages.download(() => this.fetchImage(url)) : await this.fetchTmdbImage(url);
    if (status === 404) {
      this.missing.add(`${source}/${type}/${id}`);
      throw new PermanentJobError(`${url} does not exist`);
    }
    if (status < 200 || status >= 300 || !bytes) throw new Error(`${url} answered HTTP ${status}`);
    try {
      await this.deps.store.save(source, type, id, bytes);
    } catch (error) {
      // A full disk is not the image's fault: the job waits while the queue pauses until space is freed.
      if (isDiskFullError(error)) throw error;
      throw new PermanentJobError(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** One GET, body read to the end (a download ends when its bytes are in, which is when the next gap starts). */
  private async fetchImage(url: string): Promise<{ status: number; bytes: Buffer | null }> {
    const response = await (this.deps.fetch ?? fetch)(url, { headers: { 'User-Agent': 'shoko-ts' }, signal: AbortSignal.timeout(180_000) });
    if (!response.ok) {
      await response.body?.cancel();
      return { status: response.status, bytes: null };
    }
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  private async fetchTmdbImage(url: string): Promise<{ status: number; bytes: Buffer | null }> {
    const release = await this.tmdbImages.acquire();
    try {
      return await this.fetchImage(url);
    } finally {
      release();
    }
  }

  async setEnabled(source: ImageSource, type: ImageType, id: number, enabled: boolean): Promise<void> {
    await this.deps.records.setDisabled(source, type, id, !enabled);
  }

  async isDisabled(source: ImageSource, type: ImageType, id: number): Promise<boolean> {
    return this.deps.records.isDisabled(source, type, id);
  }

  /** `source:type:id` of every disabled image (see image-lists.ts). */
  disabledKeys(): Promise<Set<string>> {
    return this.deps.records.disabledKeys();
  }

  /** Whether an image file is stored. */
  has(source: ImageSource, type: ImageType, id: number): boolean {
    return this.deps.store.has(source, type, id);
  }

  /** A stored image file and its content type; null when not stored. */
  find(source: ImageSource, type: ImageType, id: number): ReturnType<ImageStore['find']> {
    return this.deps.store.find(source, type, id);
  }

  /**
   * A random stored image of a type with the series it belongs to, skipping restricted series unless asked; null when
   * none is found within `attempts` picks.
   */
  async random(type: ImageType, options: { includeRestricted: 'true' | 'false' | 'only'; attempts: number }): Promise<ImageModel | null> {
    const candidates: Array<{ source: ImageSource; id: number }> = [];
    const sources: ImageSource[] = type === 'Poster' ? ['AniDB', 'TMDB'] : type === 'Character' || type === 'Staff' ? ['AniDB'] : ['TMDB'];
    for (const source of sources) for (const id of this.deps.store.ids(source, type)) candidates.push({ source, id });
    for (let attempt = 0; attempt < Math.max(1, options.attempts) && candidates.length; attempt++) {
      const [pick] = candidates.splice(Math.floor(Math.random() * candidates.length), 1);
      const series = await this.seriesOf(pick.source, type, pick.id);
      if (!series) continue;
      if (options.includeRestricted === 'false' && series.restricted) continue;
      if (options.includeRestricted === 'only' && !series.restricted) continue;
      if (await this.isDisabled(pick.source, type, pick.id)) continue;
      return { ...this.model(pick.source, type, pick.id), Series: { ID: series.id, Name: series.name } };
    }
    return null;
  }

  model(source: ImageSource, type: ImageType, id: number): ImageModel {
    return {
      ID: id,
      Type: type,
      Source: source,
      LanguageCode: null,
      RelativeFilepath: this.deps.store.has(source, type, id) ? `/${source}/${type}/${id}` : null,
      Preferred: false,
      Disabled: false,
      Width: null,
      Height: null,
    };
  }

  /** The first local series an image belongs to. */
  private async seriesOf(
    source: ImageSource,
    type: ImageType,
    id: number,
  ): Promise<{ id: number; name: string; restricted: boolean } | null> {
    const records = this.deps.records;
    let animeId: number | undefined;
    if (source === 'AniDB' && type === 'Poster') animeId = id;
    else if (source === 'AniDB' && type === 'Character') animeId = await records.firstAnimeOfCharacter(id);
    else if (source === 'AniDB' && type === 'Staff') animeId = await records.firstAnimeOfCreator(id);
    else if (source === 'TMDB') animeId = await records.animeOfTmdbImage(id);
    return animeId === undefined ? null : records.seriesOfAnime(animeId);
  }
}

/** An AniDB anime's poster, and the pictures of its characters and their voice actors that were stored with it. */
/** The pictures of an anime the metadata domain stored (its AnimeMetadata: metadata depends on images, not back). */
export interface AnimePictures {
  id: number;
  picture: string | null;
  characters?: Array<{ id: number; picture: string | null; voiceActors: Array<{ id: number; picture: string | null }> }>;
}

export async function queueAniDBImages(images: ImagesService, meta: AnimePictures): Promise<void> {
  await images.queueAniDBImage({ type: 'Poster', id: meta.id, picture: meta.picture });
  for (const character of meta.characters ?? []) {
    await images.queueAniDBImage({ type: 'Character', id: character.id, picture: character.picture });
    for (const actor of character.voiceActors) await images.queueAniDBImage({ type: 'Staff', id: actor.id, picture: actor.picture });
  }
}
