import { describe, expect, it } from 'vitest';
import type {
  AnidbAnimeHit,
  AuthResult,
  Episode,
  Group,
  Images,
  ImportFolder,
  ListResult,
  Role,
  Series,
  SeriesSearchResult,
  Tag,
} from '@shoko-ts/contract';
import { CLIENT_USER, DATE_ONLY, DEMO_COLLECTIONS, useDemoCollection, jsonOf, type XRefFile } from '../test/demo-collection.js';

/**
 * Shoko Relay (the Plex scanner, metadata agent and scripts) against the demo collection, in the order Plex drives
 * them, with the URLs as Python builds them: `urllib.quote` path parts (keeps `/`, escapes `\`, brackets and spaces),
 * `quote_plus` search terms, the comma form `includeDataFrom=AniDB,TMDB`, and the scripts' `apikey` query parameter.
 * See README.md for where each call and field comes from.
 */

/** Python's urllib.quote with its default safe '/': letters, digits, `_.-~` and `/` stay, the rest is %-escaped. */
const pythonQuote = (text: string) =>
  Array.from(Buffer.from(text, 'utf8'))
    .map((byte) => {
      const c = String.fromCharCode(byte);
      return /[A-Za-z0-9_.\-~/]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
/** Python's urllib.quote_plus: as quote with no safe characters, and spaces as '+'. */
const pythonQuotePlus = (text: string) => pythonQuote(text).replace(/\//g, '%2F').replace(/%20/g, '+');

/** The season the scanner and agent give an AniDB episode type. */
const SEASON_OF_TYPE: Record<string, number> = { Episode: 1, Special: 0, Credits: -1, Trailer: -2, Parody: -3, Other: -4 };

describe.each(DEMO_COLLECTIONS)('conformance: Shoko Relay (Plex) (%s)', (_arrival, startCollection) => {
  const demo = useDemoCollection(startCollection);
  let key = '';
  const KIRI = 9001;
  const FOLDER = 'Kiri no Toudai Yuubinkyoku';
  const FILE_01 = '[Lantern] Kiri no Toudai Yuubinkyoku - 01 [1080p].mkv';
  /** The scanner and agent: headers Accept and apikey. */
  const get = (url: string) => demo().server.request({ method: 'GET', url, key, headers: { accept: 'application/json' } });
  /** The scripts: requests with the key in the query string only. */
  const script = (method: string, url: string, body?: unknown) =>
    demo().server.request({ method, url: `${url}${url.includes('?') ? '&' : '?'}apikey=${key}`, body });
  const series = () => demo().seriesByAnime.get(KIRI)!;

  it('POST /api/auth with device "Shoko Relay for Plex"', async () => {
    const res = await demo().server.request({ method: 'POST', url: '/api/auth', body: { ...CLIENT_USER, device: 'Shoko Relay for Plex' } });
    key = jsonOf<AuthResult>(res).apikey;
    expect(key).toEqual(expect.any(String));
    // Imported from Shoko: Shoko's password logs in as above, and the client goes on with the key Shoko gave it.
    key = demo().shokoApiKey ?? key;
  });

  describe('scanner', () => {
    it('GET File/PathEndsWith/<folder/file quoted, "/" kept>?include=XRefs answers exactly that file', async () => {
      const files = jsonOf<XRefFile[]>(await get(`/api/v3/File/PathEndsWith/${pythonQuote(`${FOLDER}/${FILE_01}`)}?include=XRefs`));
      expect(files).toHaveLength(1);
      expect(files[0].ID).toBe(demo().fileByPath.get(`${FOLDER}/${FILE_01}`));
      expect(files[0].SeriesIDs[0].SeriesID.ID).toBe(series());
      expect(files[0].SeriesIDs[0].EpisodeIDs).toEqual([expect.objectContaining({ ID: expect.any(Number) })]);
    });

    it('GET File/PathEndsWith/<folder%5Cfile, as Plex on Windows sends it>?include=XRefs answers the same file', async () => {
      const files = jsonOf<XRefFile[]>(await get(`/api/v3/File/PathEndsWith/${pythonQuote(`${FOLDER}\\${FILE_01}`)}?include=XRefs`));
      expect(files.map((f) => f.ID)).toEqual([demo().fileByPath.get(`${FOLDER}/${FILE_01}`)]);
    });

    it('GET File/PathEndsWith/<a file the server does not have> answers an empty list', async () => {
      expect(jsonOf(await get(`/api/v3/File/PathEndsWith/${pythonQuote(`${FOLDER}/not here - 99.mkv`)}?include=XRefs`))).toEqual([]);
    });

    it('GET Series/{id}?includeDataFrom=AniDB,TMDB (comma form)', async () => {
      const s = jsonOf<Series>(await get(`/api/v3/Series/${series()}?includeDataFrom=AniDB,TMDB`));
      expect(s.Name).toBe('Kiri no Toudai Yuubinkyoku');
      expect(s.TMDB).toEqual({ Shows: [], Movies: [] });
    });

    it('per episode id of the file: GET Episode/{id}?includeDataFrom=AniDB,TMDB gives season 1, episode 1', async () => {
      const file = jsonOf<XRefFile>(await get(`/api/v3/File/${demo().fileByPath.get(`${FOLDER}/${FILE_01}`)}?include=XRefs`));
      const episodeId = file.SeriesIDs[0]!.EpisodeIDs[0]!.ID;
      const episode = jsonOf<Episode>(await get(`/api/v3/Episode/${episodeId}?includeDataFrom=AniDB,TMDB`));
      expect(episode.IDs.ID).toBe(episodeId);
      expect(episode.IDs.TMDB.Episode).toEqual([]);
      expect(episode.IsHidden).toBe(false);
      expect(SEASON_OF_TYPE[episode.AniDB!.Type]).toBe(1);
      expect(episode.AniDB!.EpisodeNumber).toBe(1);
      expect(episode.TMDB!.Episodes).toEqual([]);
    });
  });

  describe('metadata agent', () => {
    it('search: GET Series/Search?query=<quote_plus name>&fuzzy=false&limit=10', async () => {
      const results = jsonOf<SeriesSearchResult[]>(
        await get(`/api/v3/Series/Search?query=${pythonQuotePlus('Kiri no Toudai Yuubinkyoku')}&fuzzy=false&limit=10`),
      );
      expect(results.length).toBeGreaterThan(0);
      expect(results.length).toBeLessThanOrEqual(10);
      for (const result of results) {
        expect(result.IDs.ID).toEqual(expect.any(Number));
        expect(result.Name).toEqual(expect.any(String));
        expect(result.Distance).toEqual(expect.any(Number));
      }
      const exact = results.find((r) => r.Name === 'Kiri no Toudai Yuubinkyoku');
      expect(exact?.IDs.ID).toBe(series());
    });

    it('search: GET Series/{id}/AniDB gives the air date the year is cut from', async () => {
      const anidb = jsonOf<AnidbAnimeHit>(await get(`/api/v3/Series/${series()}/AniDB`));
      expect(anidb.AirDate).toMatch(DATE_ONLY);
      expect(anidb.AirDate?.split('-')[0]).toBe('2021');
    });

    it('update: GET Series/{id}?includeDataFrom=AniDB,TMDB gives titles, a yyyy-MM-dd air date, a 0–1000 rating and images', async () => {
      const s = jsonOf<Series>(await get(`/api/v3/Series/${series()}?includeDataFrom=AniDB,TMDB`));
      for (const title of s.AniDB!.Titles) {
        expect(title).toEqual(
          expect.objectContaining({ Name: expect.any(String), Language: expect.any(String), Type: expect.any(String) }),
        );
      }
      expect(s.AniDB!.Titles.filter((t) => t.Type !== 'Short').map((t) => t.Language)).toEqual(expect.arrayContaining(['x-jat', 'en']));
      expect(s.AniDB!.AirDate).toMatch(DATE_ONLY);
      // The agent divides the AniDB rating by 100 to get Plex's 0–10.
      expect(s.AniDB!.Rating.Value).toBeGreaterThan(10);
      expect(s.AniDB!.Rating.Value).toBeLessThanOrEqual(1000);
      expect(s.Description).toEqual(expect.any(String));
      expect(s.Images.Posters[0]).toEqual(
        expect.objectContaining({ Source: expect.any(String), Type: expect.any(String), ID: expect.anything() }),
      );
      expect(s.Images.Backdrops).toEqual(expect.any(Array));
    });

    it('update: GET Series/{id}/Cast?roleType=Studio names the animation studio', async () => {
      const studios = jsonOf<Role[]>(await get(`/api/v3/Series/${series()}/Cast?roleType=Studio`));
      expect(studios[0].Staff.Name).toBe('Studio Kazamidori');
    });

    it('update (no studio): GET Series/{id}/Cast?roleType=Staff&roleDetails=Work answers a list', async () => {
      const movie = demo().seriesByAnime.get(9101)!;
      expect(jsonOf(await get(`/api/v3/Series/${movie}/Cast?roleType=Staff&roleDetails=Work`))).toEqual(expect.any(Array));
    });

    it('update: GET Series/{id}/Tags?filter=1&excludeDescriptions=true&orderByName=false&onlyVerified=true', async () => {
      const tags = jsonOf<Tag[]>(
        await get(`/api/v3/Series/${series()}/Tags?filter=1&excludeDescriptions=true&orderByName=false&onlyVerified=true`),
      );
      expect(tags.length).toBeGreaterThan(0);
      for (const tag of tags)
        expect(tag).toEqual(expect.objectContaining({ Name: expect.any(String), Weight: expect.any(Number), Source: expect.any(String) }));
      expect(tags.map((t) => t.Name)).toContain('lighthouse');
    });

    it('update: GET Series/{id}/Group gives the collection name and size', async () => {
      const group = jsonOf<Group>(await get(`/api/v3/Series/${series()}/Group`));
      expect(group.Name).toBe('Kiri no Toudai Yuubinkyoku');
      expect(group.Size).toBe(2);
    });

    it('update: GET Series/{id}/Images?includeDisabled=false', async () => {
      const images = jsonOf<Images>(await get(`/api/v3/Series/${series()}/Images?includeDisabled=false`));
      expect(images.Posters.length).toBeGreaterThan(0);
      for (const poster of images.Posters) {
        expect(poster).toEqual(
          expect.objectContaining({ Preferred: expect.any(Boolean), Source: expect.any(String), Type: expect.any(String) }),
        );
        const image = await demo().server.request({ method: 'GET', url: `/api/v3/Image/${poster.Source}/${poster.Type}/${poster.ID}` });
        expect(image.statusCode).toBe(200);
      }
      expect(images.Backdrops).toEqual(expect.any(Array));
    });

    it('update: GET Series/{id}/Cast gives actors with characters and staff with role details', async () => {
      const cast = jsonOf<Role[]>(await get(`/api/v3/Series/${series()}/Cast`));
      const actors = cast.filter((r) => r.RoleName === 'Actor');
      expect(actors.length).toBeGreaterThan(0);
      for (const actor of actors) {
        expect(actor.Staff.Name).toEqual(expect.any(String));
        expect('Image' in actor.Staff).toBe(true);
        expect(actor.Character?.Name).toEqual(expect.any(String));
      }
      expect(cast.find((r) => r.RoleName === 'Director')?.Staff.Name).toBe('Aomine Tsukasa');
      expect(cast.find((r) => r.RoleName === 'SourceWork')?.Staff.Name).toBe('Shiraishi Nagi');
      for (const role of cast) expect(role.RoleDetails).toEqual(expect.any(String));
    });

    it('update: GET Series/{id}/Episode?pageSize=0, then every Episode/{id}?includeDataFrom=AniDB,TMDB', async () => {
      const list = jsonOf<ListResult<Episode>>(await get(`/api/v3/Series/${series()}/Episode?pageSize=0`));
      expect(list.List.length).toBeGreaterThan(0);
      const seen: string[] = [];
      for (const item of list.List) {
        const episode = jsonOf<Episode>(await get(`/api/v3/Episode/${item.IDs.ID}?includeDataFrom=AniDB,TMDB`));
        const anidb = episode.AniDB!;
        expect(SEASON_OF_TYPE[anidb.Type], anidb.Type).toEqual(expect.any(Number));
        expect(anidb.EpisodeNumber).toEqual(expect.any(Number));
        expect(episode.Name).toEqual(expect.any(String));
        for (const title of anidb.Titles)
          expect(title).toEqual(expect.objectContaining({ Name: expect.any(String), Language: expect.any(String) }));
        if (anidb.AirDate !== null) expect(anidb.AirDate).toMatch(DATE_ONLY);
        expect(anidb.Rating.Value).toEqual(expect.any(Number));
        expect(episode.Images.Thumbnails ?? []).toEqual(expect.any(Array));
        expect(episode.IDs.TMDB.Episode).toEqual(expect.any(Array));
        expect(episode.TMDB!.Episodes).toEqual(expect.any(Array));
        seen.push(`S${SEASON_OF_TYPE[anidb.Type]}E${anidb.EpisodeNumber}`);
      }
      expect(seen).toEqual(expect.arrayContaining(['S1E1', 'S1E2', 'S1E3', 'S0E1']));
    });
  });

  describe('scripts (apikey in the query string)', () => {
    it('watched sync: GET File/PathEndsWith?path=<quoted /file name>&include=XRefs&limit=0 finds the unwatched file', async () => {
      const files = jsonOf<XRefFile[]>(
        await script('GET', `/api/v3/File/PathEndsWith?path=${pythonQuote('/Kiri 02 (copy).mkv')}&include=XRefs&limit=0`),
      );
      expect(files).toHaveLength(1);
      expect(files[0].ID).toBe(demo().fileByPath.get('Backup/Kiri 02 (copy).mkv'));
      expect(files[0].Watched).toBeNull();
      expect(files[0].SeriesIDs[0].SeriesID.ID).toBe(series());
      expect(files[0].SeriesIDs[0].EpisodeIDs).toEqual([expect.objectContaining({ ID: expect.any(Number) })]);
    });

    it('watched sync: POST Episode/{id}/Watched/true for each episode of that file', async () => {
      // The script takes the ids from PathEndsWith; the same file's cross-references are read here.
      const file = jsonOf<XRefFile>(
        await script('GET', `/api/v3/File/${demo().fileByPath.get('Backup/Kiri 02 (copy).mkv')}?include=XRefs`),
      );
      for (const episode of file.SeriesIDs[0]!.EpisodeIDs) {
        expect((await script('POST', `/api/v3/Episode/${episode.ID}/Watched/true`)).statusCode).toBe(200);
        expect(jsonOf<Episode>(await script('GET', `/api/v3/Episode/${episode.ID}`)).Watched).not.toBeNull();
      }
    });

    it('watched sync: GET Episode?pageSize=0&page=1&includeWatched=Only&includeFiles=true lists the watched episode', async () => {
      const watched = jsonOf<ListResult<Episode>>(
        await script('GET', '/api/v3/Episode?pageSize=0&page=1&includeWatched=Only&includeFiles=true'),
      );
      expect(watched.List.map((e) => `${e.IDs.ParentSeries}:${e.AniDB?.EpisodeNumber ?? e.IDs.AniDB}`).length).toBeGreaterThan(0);
      for (const episode of watched.List) {
        expect(episode.Watched).not.toBeNull();
        expect(episode.Files).toEqual(expect.any(Array));
      }
    });

    it('watched sync: POST Episode/{id}/Vote and Series/{id}/Vote with {Value}', async () => {
      const file = jsonOf<XRefFile>(await script('GET', `/api/v3/File/${demo().fileByPath.get(`${FOLDER}/${FILE_01}`)}?include=XRefs`));
      const episodeId = file.SeriesIDs[0]!.EpisodeIDs[0]!.ID;
      expect([200, 204]).toContain((await script('POST', `/api/v3/Episode/${episodeId}/Vote`, { Value: 8 })).statusCode);
      expect([200, 204]).toContain((await script('POST', `/api/v3/Series/${file.SeriesIDs[0].SeriesID.ID}/Vote`, { Value: 9 })).statusCode);
    });

    it("rescan recent: GET ImportFolder, Dashboard/RecentlyAddedSeries, then each series' first episode with absolute paths", async () => {
      const folders = jsonOf<ImportFolder[]>(await script('GET', '/api/v3/ImportFolder'));
      expect(folders.map((f) => f.ID)).toEqual([demo().importFolderId]);
      const recent = jsonOf<ListResult<Series>>(
        await script('GET', '/api/v3/Dashboard/RecentlyAddedSeries?pageSize=5&page=1&includeRestricted=true'),
      );
      expect(recent.List).toHaveLength(5);
      for (const s of recent.List) {
        const episodes = jsonOf<ListResult<Episode>>(
          await script(
            'GET',
            `/api/v3/Series/${s.IDs.ID}/Episode?pageSize=1&page=1&includeFiles=true&includeMediaInfo=false&includeAbsolutePaths=true&fuzzy=true`,
          ),
        );
        const absolute = episodes.List[0]!.Files![0]!.Locations[0]!.AbsolutePath;
        expect(absolute?.startsWith(demo().library)).toBe(true);
      }
    });

    it('rescan recent: GET ImportFolder/{id}/Scan and Action/RemoveMissingFiles/true', async () => {
      expect((await script('GET', `/api/v3/ImportFolder/${demo().importFolderId}/Scan`)).statusCode).toBe(200);
      await demo().server.services.queue.idle();
      expect((await script('GET', '/api/v3/Action/RemoveMissingFiles/true')).statusCode).toBe(200);
      await demo().server.services.queue.idle();
      // Nothing was missing: every demo file is still known.
      const files = jsonOf<ListResult<XRefFile>>(await script('GET', '/api/v3/File?pageSize=0'));
      expect(files.Total).toBe(new Set(demo().fileByPath.values()).size);
    });

    it('force metadata (logos): GET File/PathEndsWith/<folder/file as requests sends it unquoted>?include=XRefs, then Series/{id}/Images?includeDisabled=false', async () => {
      // The script puts the raw name in the URL; requests escapes the spaces and leaves the brackets as they are.
      const raw = `${FOLDER}/${FILE_01}`.replace(/ /g, '%20');
      const files = jsonOf<XRefFile[]>(await script('GET', `/api/v3/File/PathEndsWith/${raw}?include=XRefs`));
      expect(files.map((f) => f.ID)).toEqual([demo().fileByPath.get(`${FOLDER}/${FILE_01}`)]);
      const images = jsonOf<Images>(
        await script('GET', `/api/v3/Series/${files[0]!.SeriesIDs[0]!.SeriesID.ID}/Images?includeDisabled=false`),
      );
      expect(images.Logos).toEqual(expect.any(Array));
      for (const logo of images.Logos)
        expect(logo).toEqual(expect.objectContaining({ Preferred: expect.any(Boolean), RelativeFilepath: expect.any(String) }));
    });

    it('collection posters: GET Group?pageSize=1&page=1&includeEmpty=false&randomImages=false&topLevelOnly=true&startsWith=<title>, then the poster', async () => {
      const groups = jsonOf<ListResult<Group>>(
        await script(
          'GET',
          `/api/v3/Group?pageSize=1&page=1&includeEmpty=false&randomImages=false&topLevelOnly=true&startsWith=${pythonQuote('Kiri no Toudai Yuubinkyoku')}`,
        ),
      );
      expect(groups.List).toHaveLength(1);
      expect(groups.List[0].Name).toBe('Kiri no Toudai Yuubinkyoku');
      const poster = groups.List[0]!.Images.Posters[0]!;
      const image = await demo().server.request({ method: 'GET', url: `/api/v3/Image/${poster.Source}/Poster/${poster.ID}` });
      expect(image.statusCode).toBe(200);
    });
  });
});
