// The first import of a 5,000-anime collection, pictures included, driven through the server's own scheduler, queue,
// AniDB connection, anime import and image jobs on a virtual clock, against the strict loopback fakes (AniDB's rules
// enforced like AniDB, the long-term one too). Reports per protocol and for pictures the shortest gap and the most
// requests in any 60 s and any hour. Run from anidb-day.bench.mjs (under tsx).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const HOUR = 3_600_000;

/**
 * Virtual time: `sleep` parks the caller until the clock reaches its time; the clock jumps to the earliest sleeper only
 * once no request to a fake is in flight and the event loop has run dry for a few turns, so what the fakes see is
 * stamped with the time it was sent at.
 */
function virtualClock(start) {
  let now = start;
  let io = 0;
  let ioDone = null;
  const sleepers = [];
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  return {
    now: () => now,
    sleep: (ms) => new Promise((resolve) => sleepers.push({ at: now + Math.max(0, ms), resolve })),
    /** Wraps an I/O call so the clock stands still while it is in flight. */
    io: async (work) => {
      io += 1;
      try {
        return await work();
      } finally {
        io -= 1;
        if (io === 0 && ioDone) ioDone();
      }
    },
    async drive(done) {
      while (!done()) {
        for (let i = 0; i < 4; i++) await turn();
        if (io > 0) {
          await new Promise((resolve) => (ioDone = resolve));
          ioDone = null;
          continue;
        }
        if (!sleepers.length) {
          await new Promise((resolve) => setTimeout(resolve, 1));
          continue;
        }
        sleepers.sort((a, b) => a.at - b.at);
        now = Math.max(now, sleepers[0].at);
        while (sleepers.length && sleepers[0].at <= now) sleepers.shift().resolve();
      }
    },
  };
}

/** Shortest gap, most in any window. */
export function paceFigures(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const minGap = sorted.slice(1).reduce((min, t, i) => Math.min(min, t - sorted[i]), Infinity);
  const most = (windowMs) => {
    let best = 0;
    for (let i = 0, j = 0; i < sorted.length; i++) {
      while (sorted[i] - sorted[j] >= windowMs) j++;
      best = Math.max(best, i - j + 1);
    }
    return best;
  };
  return {
    count: sorted.length,
    minGap,
    perMinute: most(60_000),
    perHour: most(HOUR),
    span: sorted.length ? sorted.at(-1) - sorted[0] : 0,
  };
}

export async function runFirstImport({ root, count = 5_000 }) {
  const src = (file) => import(pathToFileURL(path.join(root, file)).href);
  const pino = (await import('pino')).default;
  const { openDatabase } = await src('server/src/db/database.ts');
  const { migrateToLatest } = await src('server/src/db/migrate.ts');
  const { EventBus } = await src('server/src/events/bus.ts');
  const { SettingsService } = await src('server/src/domains/settings/settings.service.ts');
  const { QueueService } = await src('server/src/jobs/queue.service.ts');
  const { JobsStore } = await src('server/src/jobs/jobs.store.ts');
  const { AniDBConnection } = await src('server/src/domains/metadata/anidb-connection.ts');
  const { AniDBStateStore } = await src('server/src/domains/metadata/anidb-state.store.ts');
  const { anidbHttpSource } = await src('server/src/domains/metadata/anidb-http-source.ts');
  const { AnimeImport } = await src('server/src/domains/metadata/anime-import.ts');
  const { AnimeStore } = await src('server/src/domains/metadata/anime.store.ts');
  const { LocalSeriesStore } = await src('server/src/domains/metadata/local-series.store.ts');
  const { FileLinksStore } = await src('server/src/domains/metadata/file-links.store.ts');
  const { FileMatching } = await src('server/src/domains/metadata/file-matching.ts');
  const { MetadataScheduler } = await src('server/src/domains/metadata/metadata-scheduler.ts');
  const { FilesStore } = await src('server/src/domains/files/files.store.ts');
  const { ImagesService, queueAniDBImages } = await src('server/src/domains/images/images.service.ts');
  const { ImageStore } = await src('server/src/domains/images/image-store.ts');
  const { ImagesStore } = await src('server/src/domains/images/images.store.ts');
  const { AniDBImagePacer } = await src('server/src/domains/images/anidb-image-pacer.ts');
  const { anidbWorkEstimator } = await src('server/src/domains/queue/anidb-estimate.routes.ts');
  const { httpPacingFromSettings } = await src('server/src/providers/anidb/http/rate-limit.ts');
  const { timingsFromSettings } = await src('server/src/providers/anidb/udp/rate-limiter.ts');
  const { UdpTransport } = await src('server/src/providers/anidb/udp/transport.ts');
  const { startFakeAniDBHttp, inventedAnimeXml, inventedEpisodeId } = await src('fakes/src/anidb-http/index.ts');
  const { startFakeAniDBUdp, fileCommands, anidbStrictRules } = await src('fakes/src/anidb-udp/index.ts');
  const { startFakeAniDBImages } = await src('fakes/src/anidb-images/index.ts');

  const clock = virtualClock(Date.parse('2026-06-01T00:00:00Z'));
  const strict = (protocol) => ({ ...anidbStrictRules(protocol), now: clock.now });
  const firstAnime = 20_000;
  const anime = {};
  const files = [];
  for (let i = 0; i < count; i++) {
    const id = firstAnime + i;
    // Each anime its own cast: five pictures (poster, two characters, two voice actors).
    anime[id] = inventedAnimeXml({ id, title: `Invented Anime ${id}`, relatedAnime: [], similarAnime: [] })
      .replace(/(character id=")4900([12])"/g, `$1${id}$2"`)
      .replace(/<picture>4900([12])01\.jpg/g, `<picture>c${id}-$1.jpg`)
      .replace(/seiyuu id="5900([123])" picture="5900([12])01\.jpg"/g, `seiyuu id="${id}$1" picture="s${id}-$2.jpg"`)
      .replace(/seiyuu id="5900([123])"/g, `seiyuu id="${id}$1"`);
    files.push({
      size: 100_000 + i,
      ed2k: (i + 1).toString(16).toUpperCase().padStart(32, '0'),
      fileId: 500_000 + i,
      animeId: id,
      episodeId: inventedEpisodeId(id, '1'),
    });
  }
  const udp = await startFakeAniDBUdp({ users: { bench: 'pw' }, commands: fileCommands(files), strict: strict('udp') });
  const http = await startFakeAniDBHttp({ anime, strict: strict('http') });
  const images = await startFakeAniDBImages({ strict: strict('images') });
  const env = { SHOKO_ANIDB_UDP: `${udp.host}:${udp.port}`, SHOKO_ANIDB_HTTP: http.url, SHOKO_ANIDB_IMAGE_URL: images.url };
  Object.assign(process.env, env);

  // Requests to the fakes stop the clock while in flight (HTTP through fetch, UDP through the transport).
  const realFetch = globalThis.fetch;
  globalThis.fetch = (...args) => clock.io(() => realFetch(...args));
  const realExchange = UdpTransport.prototype.exchange;
  UdpTransport.prototype.exchange = function (...args) {
    return clock.io(() => realExchange.apply(this, args));
  };

  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'anidb-first-import-'));
  const logger = pino({ level: 'silent' });
  const db = openDatabase({ home, databaseUrl: null });
  await migrateToLatest(db);
  const bus = new EventBus();
  const settings = await SettingsService.open({ home, logger, bus });
  await settings.update((s) => {
    s.AniDb.Username = 'bench';
    s.AniDb.Password = 'pw';
    s.AniDb.DownloadCharacters = true;
    s.AniDb.DownloadCreators = true;
  });
  const queue = new QueueService(new JobsStore(db.kysely), bus, logger, { threadCount: 4 });
  const anidb = new AniDBConnection(settings, bus, logger, { clock, store: new AniDBStateStore(db.kysely) });
  // The fakes are on this machine, where the server would not pace at all: pace as toward AniDB itself.
  anidb.udpLimiter.setTimings(timingsFromSettings(settings.current.AniDb.UDPRateLimit));
  anidb.httpLimiter.setPacing(httpPacingFromSettings(settings.current.AniDb.HTTPRateLimit));
  const filesStore = new FilesStore(db.kysely);
  const links = new FileLinksStore(db.kysely);
  const imageStore = new ImageStore(home);
  const imageService = new ImagesService({
    records: new ImagesStore(db.kysely),
    store: imageStore,
    queue,
    settings,
    logger,
    anidbImages: new AniDBImagePacer({ anidbHold: () => anidb.pictureHold(), onResume: () => queue.recheckHolds(), clock, gapMs: 4_000 }),
  });
  const animeImport = new AnimeImport({
    onAnimeSaved: (meta) => queueAniDBImages(imageService, meta),
    source: anidbHttpSource({ home }, settings, anidb, logger),
    anime: new AnimeStore(db.kysely),
    localSeries: new LocalSeriesStore(db.kysely),
    links,
    files: filesStore,
    settings,
    queue,
    bus,
  });
  const fileMatching = new FileMatching({
    files: filesStore,
    links,
    anidb,
    queue,
    bus,
    onAnimeNeeded: async (animeIds) => {
      for (const animeId of animeIds) await animeImport.queue(animeId);
    },
  });
  anidb.holdJobs(queue, { udp: [fileMatching.job.kind], http: [animeImport.job.kind] });
  const scheduler = new MetadataScheduler({ db: db.kysely, settings, anidb, fileMatching, animeImport, bus, logger, now: clock.now });
  const estimator = anidbWorkEstimator({
    queue,
    metadata: { anidb, fileMatching, animeImport, myList: { job: { type: 'Update AniDB MyList' } } },
    images: { service: imageService },
    db,
  });

  // The collection on disk: 5,000 hashed files, one per anime, none known yet.
  const stamp = new Date(clock.now()).toISOString();
  for (let i = 0; i < files.length; i += 500)
    await db.kysely
      .insertInto('files')
      .values(
        files.slice(i, i + 500).map((f) => ({
          size: f.size,
          ed2k: f.ed2k,
          ed2k_alternate: null,
          crc32: '',
          md5: '',
          sha1: '',
          is_ignored: 0,
          is_variation: 0,
          media_info: null,
          imported_at: null,
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .execute();

  const started = clock.now();
  const wallStart = performance.now();
  await scheduler.check();
  const estimates = [];
  const sample = async (label) => estimates.push({ label, at: clock.now(), estimate: await estimator.estimate() });
  await sample('start (the file lookups queued)');
  let done = false;
  let nextSample = started + HOUR;
  const sampler = setInterval(() => {
    if (clock.now() >= nextSample && estimates.length < 400) {
      nextSample += HOUR;
      void sample(`after ${Math.round((clock.now() - started) / HOUR)} h`);
    }
  }, 5);
  await queue.start();
  const idle = queue.idle().then(() => (done = true));
  await clock.drive(() => done);
  await idle;
  clearInterval(sampler);
  const finished = clock.now();
  const wallSeconds = (performance.now() - wallStart) / 1000;

  const stored = Number(
    (
      await db.kysely
        .selectFrom('anidb_anime')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const pictures = ['Poster', 'Character', 'Staff'].reduce((sum, type) => sum + imageStore.ids('AniDB', type).length, 0);
  const result = {
    count,
    stored,
    pictures,
    hours: (finished - started) / HOUR,
    wallSeconds,
    udp: paceFigures(udp.strict.times),
    http: paceFigures(http.strict.times),
    images: paceFigures(images.strict.times),
    bans: { udp: udp.strict.bans, http: http.strict.bans, images: images.strict.bans },
    estimates: estimates.map((e) => ({ ...e, actualHoursLeft: (finished - e.at) / HOUR })),
  };

  await anidb.reset();
  await queue.stop();
  await db.destroy?.();
  globalThis.fetch = realFetch;
  UdpTransport.prototype.exchange = realExchange;
  for (const key of Object.keys(env)) delete process.env[key];
  await udp.close();
  await http.close();
  await images.close();
  fs.rmSync(home, { recursive: true, force: true });
  return result;
}
