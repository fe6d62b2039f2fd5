import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOKO_IMPORT_PROGRESS_EVENT, type ShokoImportReport, type ShokoImportStatus } from '@shoko-ts/contract';
import { writeShokoDataFolder, type ShokoDataFolderManifest } from '@shoko-ts/fakes/shoko-data';
import { createTestServer, login, type TestServer } from '../../test/harness.js';

/**
 * Moving from Shoko Server through the API, as the first-run wizard does: a Shoko-shaped data folder (fakes/shoko-data,
 * its last writes still in the WAL) is checked, imported, and what each kind became is read back through the API as
 * the users and clients that owned it.
 */
describe('ShokoImport: a Shoko Server data folder imported through the first-run API', () => {
  let server: TestServer;
  let root: string;
  let manifest: ShokoDataFolderManifest;
  let dryRun: ShokoImportReport;
  let report: ShokoImportReport;
  const shokoFiles = new Map<string, number>();
  const keyOf = new Map<number, string>();
  /** Whether the series search index was built for the imported collection at the moment the import said Completed. */
  let searchPreparedAtCompleted: boolean | null = null;

  beforeAll(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-import-')));
    manifest = await writeShokoDataFolder(path.join(root, 'shoko'), { size: 'small', mediaRoot: path.join(root, 'media'), leaveWal: true });
    for (const file of fs.readdirSync(manifest.dir, { recursive: true, withFileTypes: true }))
      if (file.isFile()) {
        const full = path.join(file.parentPath, file.name);
        shokoFiles.set(full, fs.statSync(full).mtimeMs);
      }
    server = await createTestServer();
    const check = await server.request({ method: 'POST', url: '/api/v3/ShokoImport/DryRun', body: { Folder: manifest.dir } });
    expect(check.statusCode, check.body).toBe(200);
    dryRun = check.json();
    // Read as the import announces Completed (the bus calls listeners at once), before the start or anything else runs.
    server.services.bus.on('shoko', (message) => {
      if (message.event === SHOKO_IMPORT_PROGRESS_EVENT && (message.payload as ShokoImportStatus).State === 'Completed')
        searchPreparedAtCompleted = server.services.seriesCatalog.searchPrepared();
    });
    const start = await server.request({ method: 'POST', url: '/api/v3/ShokoImport/Start', body: { Folder: manifest.dir } });
    expect(start.statusCode, start.body).toBe(202);
    // Anonymous until the server has started (it starts by itself once the import is done), then for admins only.
    let polled: { statusCode: number; json(): ShokoImportStatus };
    do {
      await new Promise((resolve) => setTimeout(resolve, 50));
      polled = await server.request({ method: 'GET', url: '/api/v3/ShokoImport/Status' });
    } while (polled.statusCode === 200 && polled.json().State === 'Running');
    while (!server.services.state.isStarted && server.services.state.current !== 'Failed') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await server.services.init.waitForStartup();
    }
    expect(server.services.state.status()).toMatchObject({ State: 'Started' });
    for (const user of manifest.users) keyOf.set(user.id, await login(server, user.name, user.password));
    // Still open to the wizard that ran the import for a while after it completed; admins only afterwards.
    expect((await server.request({ method: 'GET', url: '/api/v3/ShokoImport/Status' })).json().State).toBe('Completed');
    const justCompleted = server.services.shokoImport.justCompleted.bind(server.services.shokoImport);
    server.services.shokoImport.justCompleted = () => justCompleted(Date.now() + 16 * 60_000);
    expect((await server.request({ method: 'GET', url: '/api/v3/ShokoImport/Status' })).statusCode).toBe(401);
    const status: ShokoImportStatus = await get('/api/v3/ShokoImport/Status');
    expect(status.Error).toBeNull();
    expect(status.State).toBe('Completed');
    report = status.Report!;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const get = async (url: string, userId = manifest.users.find((u) => u.isAdmin)!.id) => {
    const res = await server.request({ method: 'GET', url, key: keyOf.get(userId) });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };

  it('prepares the series search before it says Completed, so the first search finds the titles prepared', async () => {
    expect(searchPreparedAtCompleted).toBe(true);
    const found: Array<{ IDs: { ID: number } }> = await get(`/api/v3/Series/Search?query=${encodeURIComponent('a')}&limit=5`);
    expect(found.length).toBeGreaterThan(0);
  });

  it('the dry run foresaw the import, and both reports account for every source row', () => {
    expect(dryRun.DryRun).toBe(true);
    expect(report.DryRun).toBe(false);
    expect(dryRun.Kinds.map((k) => [k.Kind, k.Source, k.Imported])).toEqual(report.Kinds.map((k) => [k.Kind, k.Source, k.Imported]));
    for (const kind of report.Kinds) expect(kind.Imported + kind.Skipped.reduce((n, s) => n + s.Count, 0), kind.Kind).toBe(kind.Source);
    const kind = (name: string) => report.Kinds.find((k) => k.Kind === name)!;
    expect(kind('Users').Source).toBe(manifest.users.length);
    expect(kind('Files').Imported).toBe(manifest.files.length);
    expect(
      kind('Filters')
        .Skipped.map((s) => s.Examples)
        .flat(),
    ).toEqual(manifest.filterPresets.filter((f) => f.unsupported).map((f) => f.name));
    expect(fs.existsSync(report.SavedAs!)).toBe(true);
  });

  it('left the Shoko folder exactly as it was', () => {
    const after = new Map<string, number>();
    for (const file of fs.readdirSync(manifest.dir, { recursive: true, withFileTypes: true }))
      if (file.isFile()) after.set(path.join(file.parentPath, file.name), fs.statSync(path.join(file.parentPath, file.name)).mtimeMs);
    expect(after).toEqual(shokoFiles);
  });

  it('every user logs in with the Shoko password, which is then kept as our own salted hash', async () => {
    for (const user of manifest.users) {
      const row = await server.services.db.kysely
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.password_hash.startsWith('scrypt$'), user.name).toBe(true);
      expect(await login(server, user.name, user.password)).toMatch(/^[0-9a-f-]{36}$/);
      const wrong = await server.request({
        method: 'POST',
        url: '/api/auth',
        body: { user: user.name, pass: `${user.password}x`, device: 'test' },
      });
      expect(wrong.statusCode).not.toBe(200);
    }
  });

  it("every API key of Shoko's clients answers as its user, with the user's rights and restrictions", async () => {
    for (const user of manifest.users) {
      for (const key of user.apiKeys) {
        const res = await server.request({ method: 'GET', url: '/api/v3/User/Current', key: key.token });
        expect(res.statusCode, `${user.name} ${key.deviceName}`).toBe(200);
        const current = res.json();
        expect(current).toMatchObject({ ID: user.id, Username: user.name, IsAdmin: user.isAdmin });
        expect(current.PlexUsernames ?? '').toBe(user.plexUsers.join(','));
        expect(current.RestrictedTags.length).toBe(user.hiddenTags.length);
        expect(!!current.Avatar).toBe(user.hasAvatar);
      }
    }
  });

  it('files keep their ids, hashes and locations (mapped into the import folders), and nothing is hashed again', async () => {
    for (const file of manifest.files) {
      const api = await get(`/api/v3/File/${file.id}?include=XRefs,MediaInfo`);
      expect(api.Hashes).toMatchObject({ ED2K: file.ed2k, CRC32: file.crc32, MD5: file.md5, SHA1: file.sha1 });
      expect(api.Size).toBe(file.size);
      expect(api.IsVariation).toBe(file.variation);
      expect(api.Locations.map((l: { ImportFolderID: number }) => l.ImportFolderID).sort()).toEqual(
        file.locations.map((l) => l.importFolderId).sort(),
      );
      expect(api.MediaInfo?.Video?.length ?? 0).toBe(file.media.width ? 1 : 0);
      const episodeIds = (api.SeriesIDs ?? []).flatMap((x: { EpisodeIDs: Array<{ AniDB: number }> }) => x.EpisodeIDs.map((e) => e.AniDB));
      expect(episodeIds.sort()).toEqual(file.episodeLinks.map((l) => l.episodeId).sort());
    }
    const jobs = await server.services.db.kysely.selectFrom('jobs').select('kind').execute();
    expect(jobs.filter((j) => /hash/i.test(j.kind))).toEqual([]);
  });

  it('manual links stay manual, ignored files stay ignored', async () => {
    const manual = manifest.files.filter((f) => f.episodeLinks.some((l) => l.source === 'User'));
    const manualList = await get('/api/v3/File?include_only=ManualLinks&pageSize=100');
    expect(manualList.List.map((f: { ID: number }) => f.ID).sort()).toEqual(manual.map((f) => f.id).sort());
    const ignored = await get('/api/v3/File?include=Ignored&include_only=Ignored&pageSize=100');
    expect(ignored.List.map((f: { ID: number }) => f.ID).sort()).toEqual(
      manifest.files
        .filter((f) => f.ignored)
        .map((f) => f.id)
        .sort(),
    );
  });

  it('groups keep custom names, nesting and the default series; series and episodes keep title overrides', async () => {
    for (const group of manifest.groups) {
      const api = await get(`/api/v3/Group/${group.id}`);
      if (group.customName) expect(api.Name).toBe(group.name);
      expect(api.IDs.ParentGroup ?? null).toBe(group.parentId);
      if (group.defaultSeriesId) expect(api.IDs.MainSeries).toBe(group.defaultSeriesId);
    }
    for (const series of manifest.series.filter((s) => s.titleOverride))
      expect((await get(`/api/v3/Series/${series.id}`)).Name).toBe(series.titleOverride);
    for (const episode of manifest.episodes.filter((e) => e.titleOverride))
      expect((await get(`/api/v3/Episode/${episode.id}`)).Name).toBe(episode.titleOverride);
    for (const episode of manifest.episodes.filter((e) => e.hidden))
      expect((await get(`/api/v3/Episode/${episode.id}`)).IsHidden).toBe(true);
  });

  it("each user's watched dates and resume positions are theirs", async () => {
    for (const state of manifest.episodeStates) {
      const episode = await get(`/api/v3/Episode/${state.episodeId}`, state.userId);
      if (state.watchedAt) expect(new Date(episode.Watched).toISOString(), `episode ${state.episodeId}`).toBe(state.watchedAt);
      else expect(episode.Watched).toBeNull();
    }
    for (const state of manifest.fileStates) {
      const file = await get(`/api/v3/File/${state.fileId}`, state.userId);
      if (state.watchedAt) expect(new Date(file.Watched).toISOString()).toBe(state.watchedAt);
      if (state.resumePositionMs) expect(file.ResumePosition).not.toBeNull();
      else expect(file.ResumePosition ?? null).toBeNull();
    }
  });

  it('custom tags, votes, saved filters and renamer configs came along', async () => {
    const tags = await get('/api/v3/Tag/User?pageSize=0');
    const tagNames = tags.List.map((t: { Name: string }) => t.Name);
    // Shoko's own and nothing of what a new collection starts with (the starter tags, our presets) on top.
    expect([...tagNames].sort()).toEqual(manifest.customTags.map((t) => t.name).sort());
    const tagged = manifest.customTags.find((t) => t.animeIds.length)!;
    const taggedSeries = manifest.series.find((s) => s.animeId === tagged.animeIds[0])!;
    const seriesTags = await get(`/api/v3/Series/${taggedSeries.id}/Tags/User`);
    expect(seriesTags.map((t: { Name: string }) => t.Name)).toContain(tagged.name);
    const filters = await get('/api/v3/Filter?includeEmpty=true&showHidden=true&pageSize=0');
    const names = (filters.List ?? filters).map((f: { Name: string }) => f.Name);
    expect([...names].sort()).toEqual(
      manifest.filterPresets
        .filter((f) => !f.unsupported && f.parentId === null)
        .map((f) => f.name)
        .sort(),
    );
    expect(await server.services.db.kysely.selectFrom('seeded_defaults').selectAll().execute()).toEqual([]);
    const vote = manifest.votes.find((v) => v.type === 1)!;
    const series = manifest.series.find((s) => s.animeId === vote.entityId)!;
    expect((await get(`/api/v3/Series/${series.id}`)).UserRating?.Value).toBeCloseTo(vote.value / 100);
    const renamers = await get('/api/v3/Renamer/Config');
    expect(renamers.map((r: { Name: string }) => r.Name)).toEqual(manifest.renamers.filter((r) => r.supported).map((r) => r.name));
  });

  it('TMDB links, the cached AniDB pictures and the AniDB account came along', async () => {
    for (const show of manifest.tmdb.shows) {
      const series = manifest.series.find((s) => s.animeId === show.animeId)!;
      expect((await get(`/api/v3/Series/${series.id}/TMDB/Show`)).map((x: { ID: number }) => x.ID)).toContain(show.tmdbShowId);
    }
    for (const movie of manifest.tmdb.movies) {
      const series = manifest.series.find((s) => s.animeId === movie.animeId)!;
      expect((await get(`/api/v3/Series/${series.id}/TMDB/Movie`)).map((x: { ID: number }) => x.ID)).toContain(movie.tmdbMovieId);
    }
    expect(manifest.tmdb.shows.length + manifest.tmdb.movies.length).toBeGreaterThan(0);
    // The pictures are served from the copies: no image server is reachable here.
    const withPoster = manifest.anime.filter((a) => a.posterImage);
    expect(withPoster.length).toBeGreaterThan(0);
    for (const anime of withPoster)
      expect(
        (await server.request({ method: 'GET', url: `/api/v3/Image/AniDB/Poster/${anime.id}` })).statusCode,
        `poster ${anime.id}`,
      ).toBe(200);
    expect(server.services.settings.current.AniDb.Username).toBe(manifest.settings.aniDbUsername);
  });

  it('a scan finds the files Shoko knew that are gone, and keeps their records', async () => {
    const gone = manifest.files.flatMap((f) => f.locations.filter((l) => !l.exists).map((l) => ({ file: f.id, location: l.id })));
    expect(gone.length).toBeGreaterThan(0);
    const admin = keyOf.get(manifest.users.find((u) => u.isAdmin)!.id);
    for (const folder of manifest.importFolders)
      expect((await server.request({ method: 'GET', url: `/api/v3/ImportFolder/${folder.id}/Scan`, key: admin })).statusCode).toBe(200);
    await server.services.queue.idle();
    for (const { file, location } of gone) {
      const api = await get(`/api/v3/File/${file}`);
      expect(api.Locations.find((l: { ID: number }) => l.ID === location)?.IsAccessible, `location ${location}`).toBe(false);
    }
  });

  it("each user's favourite groups are what the IsFavorite condition (Shoko's Favorites preset) finds", async () => {
    for (const user of manifest.users) {
      const page = await server.request({
        method: 'POST',
        url: '/api/v3/Filter/Preview/Group?pageSize=100&page=1',
        key: keyOf.get(user.id),
        body: { Expression: { Type: 'IsFavorite' } },
      });
      expect(page.statusCode, page.body).toBe(200);
      const favourites = manifest.groups.filter((g) => g.favouriteOf.includes(user.id));
      // Favourites are top-level answers only where the group is one; a nested favourite shows under its parent.
      expect(
        page
          .json()
          .List.map((g: { IDs: { ID: number } }) => g.IDs.ID)
          .sort(),
      ).toEqual(
        favourites
          .filter((g) => g.parentId === null)
          .map((g) => g.id)
          .sort(),
      );
    }
    expect(manifest.groups.some((g) => g.favouriteOf.length)).toBe(true);
  });

  it('new rows made after the import get fresh ids (the id sequences continue after the imported ones)', async () => {
    const admin = keyOf.get(manifest.users.find((u) => u.isAdmin)!.id);
    const user = await server.request({
      method: 'POST',
      url: '/api/v3/User',
      key: admin,
      body: { Username: 'after-import', Password: 'pw', IsAdmin: false },
    });
    expect(user.statusCode, user.body).toBe(200);
    expect(user.json().ID).toBeGreaterThan(Math.max(...manifest.users.map((u) => u.id)));
    const tag = await server.request({ method: 'POST', url: '/api/v3/Tag/User', key: admin, body: { Name: 'after-import' } });
    expect(tag.statusCode, tag.body).toBe(200);
    expect(tag.json().ID).toBeGreaterThan(Math.max(...manifest.customTags.map((t) => t.id)));
    const filter = await server.request({
      method: 'POST',
      url: '/api/v3/Filter',
      key: admin,
      body: { Name: 'after-import', IsDirectory: true },
    });
    expect(filter.statusCode, filter.body).toBe(200);
    expect(filter.json().IDs.ID).toBeGreaterThan(Math.max(...manifest.filterPresets.filter((f) => !f.unsupported).map((f) => f.id)));
  });

  it('a second import into the now non-empty server is refused and changes nothing', async () => {
    const counts = async () =>
      (
        await server.services.db.kysely
          .selectFrom('files')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await counts();
    await expect(server.services.shokoImport.run({ Folder: manifest.dir }, { dryRun: false })).rejects.toThrow(/empty database/);
    expect(await counts()).toBe(before);
  });
});

describe('ShokoImport refusals', () => {
  it('counts a starter preset or tag someone changed as data already there, and one left untouched not', async () => {
    const server = await createTestServer();
    try {
      const db = server.services.db.kysely;
      const store = server.services.shokoImport['deps'].store;
      expect(await store.nonEmptyTables()).toEqual([]);
      await db.updateTable('custom_tags').set({ description: 'mine now' }).where('name', '=', 'Pinned').execute();
      await db.deleteFrom('filters').where('name', '=', 'Favorites').execute();
      expect(await store.nonEmptyTables()).toEqual(['custom_tags']);
      await db.updateTable('filters').set({ is_hidden: 1 }).where('name', '=', 'Years').execute();
      expect(await store.nonEmptyTables()).toEqual(['filters', 'custom_tags']);
    } finally {
      await server.close();
    }
  });

  it('a folder that is not Shoko, a schema version outside 5.0–5.3, and a Windows folder without a path map', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-refuse-')));
    const server = await createTestServer();
    try {
      const notShoko = await server.request({ method: 'POST', url: '/api/v3/ShokoImport/DryRun', body: { Folder: root } });
      expect(notShoko.statusCode).toBe(400);
      expect(notShoko.json().errors.Folder[0]).toMatch(/settings-server\.json/);

      const future = await writeShokoDataFolder(path.join(root, 'future'), {
        size: 'small',
        mediaRoot: path.join(root, 'm1'),
        schemaVersion: 139,
      });
      const tooNew = await server.request({ method: 'POST', url: '/api/v3/ShokoImport/Start', body: { Folder: future.dir } });
      expect(tooNew.statusCode).toBe(400);
      expect(tooNew.json().errors.Folder[0]).toMatch(/schema version 139.*122 to 138/);

      const windows = await writeShokoDataFolder(path.join(root, 'windows'), {
        size: 'small',
        mediaRoot: path.join(root, 'm2'),
        shokoMediaRoot: 'D:\\Anime\\',
      });
      const unmapped = await server.request({ method: 'POST', url: '/api/v3/ShokoImport/Start', body: { Folder: windows.dir } });
      expect(unmapped.statusCode).toBe(400);
      expect(unmapped.json().errors.PathMap[0]).toMatch(/D:\\Anime/);
      expect(await server.services.shokoImport['deps'].store.nonEmptyTables()).toEqual([]);

      const mapped = await server.services.shokoImport.run(
        { Folder: windows.dir, PathMap: [{ From: 'D:\\Anime\\', To: path.join(root, 'm2') }] },
        { dryRun: true },
      );
      expect(mapped.Blockers).toEqual([]);

      // Mapped into a system folder or into this server's data folder: refused by the import folders' own list (issue 44).
      for (const [to, why] of [
        ['/var/lib/anime', /inside the system folder \/var\/lib/],
        ['/root/anime', /inside the system folder \/root/],
        [path.join(server.home, 'anime'), /inside the server's own data folder/],
      ] as const) {
        const refused = await server.services.shokoImport.run(
          { Folder: windows.dir, PathMap: [{ From: 'D:\\Anime\\', To: to }] },
          { dryRun: true },
        );
        expect(refused.Blockers.join('\n'), to).toMatch(why);
      }
    } finally {
      await server.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('a failure part-way through the writing leaves the database as it was', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-fail-')));
    const server = await createTestServer();
    try {
      const folder = await writeShokoDataFolder(path.join(root, 'shoko'), { size: 'small', mediaRoot: path.join(root, 'media') });
      const store = server.services.shokoImport['deps'].store;
      const write = store.write.bind(store);
      store.write = (plan, progress) =>
        write(plan, (table, written, total) => {
          progress(table, written, total);
          if (table === 'episodes') throw new Error('disk pulled out');
        });
      await expect(server.services.shokoImport.run({ Folder: folder.dir }, { dryRun: false })).rejects.toThrow(
        /nothing was changed: disk pulled out/,
      );
      expect(await store.nonEmptyTables()).toEqual([]);
      const anime = await server.services.db.kysely.selectFrom('anidb_anime').select('id').execute();
      expect(anime).toEqual([]);
      // What a new collection starts with is back as well: the removal of the seeds was rolled back with the rest.
      const seeded = await server.services.db.kysely.selectFrom('seeded_defaults').select('table_name').execute();
      expect(seeded.filter((s) => s.table_name === 'filters')).toHaveLength(12);
      expect(seeded.filter((s) => s.table_name === 'custom_tags')).toHaveLength(5);
      expect(server.services.settings.current.FirstRun).toBe(true);
      expect(server.services.shokoImport.status()).toMatchObject({ State: 'Failed', Error: expect.stringMatching(/disk pulled out/) });
    } finally {
      await server.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
