import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLOCKWORK_MOVIE_ID,
  CLOCKWORK_SHOW_ID,
  PAPER_COMET_ADULT_ID,
  PAPER_COMET_MOVIE_ID,
  TIDEWATER_DRAMA_ID,
  TIDEWATER_SHOW_ID,
} from '../../../../fakes/src/tmdb/sample-data.js';
import { createUser, type TestServer } from '../../test/harness.js';
import { seedAnidbAnime } from '../../test/seed-anidb.js';
import { startServerWithTmdbFake, type TmdbFakeServer } from '../../test/tmdb-fake-server.js';

/** Invented AniDB entries (a TV series with a special, a movie, and anime without a series). */
const SHOW_ANIME = 8101;
const MOVIE_ANIME = 8301;
const UNSEEDED_ANIME = 8401;
const OTHER_ANIME = 8501;

const MOVIE_HEADER = 'AnidbAnimeId,AnidbEpisodeId,TmdbMovieId,Rating';
const SHOW_HEADER = 'AnidbAnimeId,TmdbShowId,Rating';
const EPISODE_HEADER = 'AnidbAnimeId,AnidbEpisodeId,TmdbShowId,TmdbEpisodeId,Rating';

const FULL_EXPORT = [
  MOVIE_HEADER,
  `8301,830101,${CLOCKWORK_MOVIE_ID},UserVerified`,
  `8301,830101,${PAPER_COMET_MOVIE_ID},FirstAvailable`,
  SHOW_HEADER,
  `8101,${TIDEWATER_SHOW_ID},FirstAvailable`,
  `8401,${CLOCKWORK_SHOW_ID},UserVerified`,
  EPISODE_HEADER,
  `8101,810101,${TIDEWATER_SHOW_ID},9100101,UserVerified`,
  `8101,810101,${TIDEWATER_SHOW_ID},9100102,UserVerified`,
  `8101,810102,${TIDEWATER_SHOW_ID},9100103,DateMatches`,
  '8101,810106,0,0,None',
  '',
].join('\n');

/** A multipart/form-data body as a browser or curl sends it. */
async function form(fields: Record<string, string>, fileName = 'anidb_tmdb_xrefs.csv') {
  const data = new FormData();
  for (const [name, text] of Object.entries(fields)) data.append(name, new Blob([text], { type: 'text/csv' }), fileName);
  const request = new Request('http://localhost/', { method: 'POST', body: data });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

describe('TMDB cross-reference export and import (Tmdb/Export, Tmdb/Import)', () => {
  let started: TmdbFakeServer | undefined;
  let server: TestServer;
  let key: string;
  let viewerKey: string;

  const exportCsv = (body?: unknown, apiKey = key) => server.request({ method: 'POST', url: '/api/v3/Tmdb/Export', key: apiKey, body });
  const exportText = async (body?: unknown) => {
    const res = await exportCsv(body);
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };
  const importCsv = async (csv: string, query = '', options: { field?: string; apiKey?: string } = {}) => {
    const { payload, contentType } = await form({ [options.field ?? 'file']: csv });
    return server.app.inject({
      method: 'POST',
      url: `/api/v3/tmdb/import${query}`,
      headers: { apikey: options.apiKey ?? key, 'content-type': contentType },
      payload,
    });
  };
  const importOk = async (csv: string, query = '') => {
    const res = await importCsv(csv, query);
    expect(res.statusCode, res.body).toBe(204);
  };
  const expectBodyError = (res: { statusCode: number; json(): { errors: Record<string, string[]> } }, pattern: RegExp) => {
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.Body.join(' ')).toMatch(pattern);
  };

  /** Every stored link, episode links without their row id. */
  const links = async () => {
    const db = server.services.db.kysely;
    const [movies, shows, episodes] = await Promise.all([
      db.selectFrom('xref_anidb_tmdb_movie').selectAll().orderBy('anidb_episode_id').orderBy('movie_id').execute(),
      db.selectFrom('xref_anidb_tmdb_show').selectAll().orderBy('anime_id').orderBy('show_id').execute(),
      db
        .selectFrom('xref_anidb_tmdb_episode')
        .select(['anime_id', 'anidb_episode_id', 'show_id', 'tmdb_episode_id', 'ordering', 'rating'])
        .orderBy('anidb_episode_id')
        .orderBy('ordering')
        .orderBy('tmdb_episode_id')
        .execute(),
    ]);
    return { movies, shows, episodes };
  };
  const wipeLinks = async () => {
    const db = server.services.db.kysely;
    await db.deleteFrom('xref_anidb_tmdb_movie').execute();
    await db.deleteFrom('xref_anidb_tmdb_show').execute();
    await db.deleteFrom('xref_anidb_tmdb_episode').execute();
  };
  const seedLinks = async () => {
    await wipeLinks();
    const db = server.services.db.kysely;
    await db
      .insertInto('xref_anidb_tmdb_movie')
      .values([
        { anime_id: MOVIE_ANIME, anidb_episode_id: 830101, movie_id: CLOCKWORK_MOVIE_ID, source: 'User' },
        { anime_id: MOVIE_ANIME, anidb_episode_id: 830101, movie_id: PAPER_COMET_MOVIE_ID, source: 'Automatic' },
      ])
      .execute();
    await db
      .insertInto('xref_anidb_tmdb_show')
      .values([
        { anime_id: SHOW_ANIME, show_id: TIDEWATER_SHOW_ID, source: 'Automatic' },
        { anime_id: UNSEEDED_ANIME, show_id: CLOCKWORK_SHOW_ID, source: 'User' },
      ])
      .execute();
    const episode = (anidb: number, show: number, tmdb: number, ordering: number, rating: string) => ({
      anime_id: SHOW_ANIME,
      anidb_episode_id: anidb,
      show_id: show,
      tmdb_episode_id: tmdb,
      ordering,
      rating,
    });
    await db
      .insertInto('xref_anidb_tmdb_episode')
      .values([
        episode(810101, TIDEWATER_SHOW_ID, 9100101, 0, 'UserVerified'),
        episode(810101, TIDEWATER_SHOW_ID, 9100102, 1, 'UserVerified'),
        episode(810102, TIDEWATER_SHOW_ID, 9100103, 0, 'DateMatches'),
        episode(810106, 0, 0, 0, 'None'),
      ])
      .execute();
  };

  beforeAll(async () => {
    started = await startServerWithTmdbFake([{ path: '/TMDB/UserApiKey', value: 'TESTKEY' }]);
    ({ server, key } = started);
    viewerKey = (await createUser(server, key, 'xref-viewer', 'viewer-pass')).key;
    await seedAnidbAnime(server, {
      id: SHOW_ANIME,
      type: 'TV',
      title: 'Chousen no Lantern',
      episodes: [
        { id: 810101, number: 1, title: "The Lamp-Keeper's Apprentice" },
        { id: 810102, number: 2, title: 'Low Tide at Nine Bell' },
        { id: 810106, type: 'Special', number: 1, title: 'Harbour Lights: A Look Back' },
      ],
    });
    await seedAnidbAnime(server, {
      id: MOVIE_ANIME,
      type: 'Movie',
      title: 'Zenmai Kajuen: Saigo no Shuukaku',
      episodes: [{ id: 830101, number: 1, title: 'Complete Movie' }],
    });
    await seedAnidbAnime(server, { id: OTHER_ANIME, type: 'OVA', title: 'Makimodoshi no Kagi', episodes: [], series: false });
    const { sync } = server.services.tmdb;
    expect(await sync.refreshMovie(CLOCKWORK_MOVIE_ID, { downloadImages: false })).toBe('updated');
    expect(await sync.refreshShow(TIDEWATER_SHOW_ID, { downloadImages: false })).toBe('updated');
    await seedLinks();
  });

  afterAll(() => started?.close());

  it('exports every section as a CSV attachment, to any user, with or without a body', async () => {
    const res = await exportCsv(undefined, viewerKey);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=anidb_tmdb_xrefs\.csv/);
    expect(res.body).toBe(FULL_EXPORT);
    expect(await exportText(null)).toBe(FULL_EXPORT);
    expect(await exportText({})).toBe(FULL_EXPORT);
    expect(await exportText({ SectionSet: ['Movie', 'show', 4] })).toBe(FULL_EXPORT);
    expect((await server.request({ method: 'POST', url: '/api/v3/Tmdb/Export' })).statusCode).toBe(401);
  });

  it('exports only the sections, link kinds and ids asked for', async () => {
    const lines = async (body: unknown) => (await exportText(body)).split('\n').filter(Boolean);
    expect(await lines({ SectionSet: ['Movie'] })).toEqual(FULL_EXPORT.split('\n').slice(0, 3));
    expect(await lines({ SectionSet: [6], Automatic: 'only' })).toEqual([
      SHOW_HEADER,
      `8101,${TIDEWATER_SHOW_ID},FirstAvailable`,
      EPISODE_HEADER,
      `8101,810102,${TIDEWATER_SHOW_ID},9100103,DateMatches`,
      '8101,810106,0,0,None',
    ]);
    expect(await lines({ Automatic: 0 })).toEqual([
      MOVIE_HEADER,
      `8301,830101,${CLOCKWORK_MOVIE_ID},UserVerified`,
      SHOW_HEADER,
      `8401,${CLOCKWORK_SHOW_ID},UserVerified`,
      EPISODE_HEADER,
      `8101,810101,${TIDEWATER_SHOW_ID},9100101,UserVerified`,
      `8101,810101,${TIDEWATER_SHOW_ID},9100102,UserVerified`,
    ]);
    // A show "with episodes" has an episode link into a TMDB episode; an episode link has one itself.
    expect(await lines({ SectionSet: ['Show', 'Episode'], WithEpisodes: 'Only' })).toEqual([
      SHOW_HEADER,
      `8101,${TIDEWATER_SHOW_ID},FirstAvailable`,
      EPISODE_HEADER,
      `8101,810101,${TIDEWATER_SHOW_ID},9100101,UserVerified`,
      `8101,810101,${TIDEWATER_SHOW_ID},9100102,UserVerified`,
      `8101,810102,${TIDEWATER_SHOW_ID},9100103,DateMatches`,
    ]);
    expect(await lines({ SectionSet: ['Show', 'Episode'], WithEpisodes: 'false' })).toEqual([
      SHOW_HEADER,
      `8401,${CLOCKWORK_SHOW_ID},UserVerified`,
      EPISODE_HEADER,
      '8101,810106,0,0,None',
    ]);
    expect(await lines({ AnidbAnimeID: SHOW_ANIME, SectionSet: ['Movie', 'Show'] })).toEqual([
      SHOW_HEADER,
      `8101,${TIDEWATER_SHOW_ID},FirstAvailable`,
    ]);
    expect(await lines({ TmdbMovieID: PAPER_COMET_MOVIE_ID, SectionSet: ['Movie'] })).toEqual([
      MOVIE_HEADER,
      `8301,830101,${PAPER_COMET_MOVIE_ID},FirstAvailable`,
    ]);
    expect(await lines({ AnidbEpisodeID: 810101, TmdbEpisodeID: 9100102, SectionSet: ['Episode'] })).toEqual([
      EPISODE_HEADER,
      `8101,810101,${TIDEWATER_SHOW_ID},9100102,UserVerified`,
    ]);
    expect(await exportText({ SectionSet: [] })).toBe('');
    expect(await exportText({ AnidbAnimeID: 99999 })).toBe('');
  });

  it('refuses export options it cannot read, naming the field', async () => {
    for (const [body, field] of [
      [{ SectionSet: ['Movies'] }, 'SectionSet'],
      [{ SectionSet: [8] }, 'SectionSet'],
      [{ Automatic: 'maybe' }, 'Automatic'],
      [{ WithEpisodes: 3 }, 'WithEpisodes'],
    ] as const) {
      const res = await exportCsv(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().errors), JSON.stringify(body)).toEqual([field]);
    }
    expect((await exportCsv({ AnidbAnimeID: 0 })).statusCode).toBe(400);
    expect((await exportCsv({ IncludeComments: 'yes please' })).statusCode).toBe(400);
  });

  it('adds comments naming each linked entry when asked', async () => {
    const rule = (header: string) => '#'.padEnd(header.length, '-');
    const text = await exportText({ IncludeComments: true });
    const anime = 'AniDB: TV ``Chousen no Lantern`` (a8101)';
    const show = `TMDB: \`\`Lanterns of the Tidewater Line\`\` (s${TIDEWATER_SHOW_ID})`;
    expect(text).toBe(
      [
        rule(MOVIE_HEADER),
        '# AniDB/TMDB Movie Cross-References',
        MOVIE_HEADER,
        rule(MOVIE_HEADER),
        '',
        `# AniDB: MV \`\`Zenmai Kajuen: Saigo no Shuukaku\`\` (a8301) 001 \`\`Complete Movie\`\` (e830101) → TMDB: \`\`Clockwork Orchard: The Last Harvest\`\` (m${CLOCKWORK_MOVIE_ID})`,
        `8301,830101,${CLOCKWORK_MOVIE_ID},UserVerified`,
        '',
        `# AniDB: MV \`\`Zenmai Kajuen: Saigo no Shuukaku\`\` (a8301) 001 \`\`Complete Movie\`\` (e830101) → TMDB: <missing title> (m${PAPER_COMET_MOVIE_ID})`,
        `8301,830101,${PAPER_COMET_MOVIE_ID},FirstAvailable`,
        '',
        '',
        rule(SHOW_HEADER),
        '# AniDB/TMDB Show Cross-References',
        SHOW_HEADER,
        rule(SHOW_HEADER),
        '',
        `# ${anime} → ${show}`,
        `8101,${TIDEWATER_SHOW_ID},FirstAvailable`,
        '',
        `# AniDB: ?? <missing title> (a8401) → TMDB: <missing title> (s${CLOCKWORK_SHOW_ID})`,
        `8401,${CLOCKWORK_SHOW_ID},UserVerified`,
        '',
        '',
        rule(EPISODE_HEADER),
        '# AniDB/TMDB Episode Cross-References',
        EPISODE_HEADER,
        rule(EPISODE_HEADER),
        '',
        `# ${anime} 001 \`\`The Lamp-Keeper's Apprentice\`\` (e810101) → ${show} S01 E001 \`\`The Lamp-Keeper's Apprentice\`\` (e9100101)`,
        `8101,810101,${TIDEWATER_SHOW_ID},9100101,UserVerified`,
        '',
        `# ${anime} 001 \`\`The Lamp-Keeper's Apprentice\`\` (e810101) → ${show} S01 E002 \`\`Low Tide at Nine Bells\`\` (e9100102)`,
        `8101,810101,${TIDEWATER_SHOW_ID},9100102,UserVerified`,
        '',
        `# ${anime} 002 \`\`Low Tide at Nine Bell\`\` (e810102) → ${show} S01 E003 \`\`A Map Drawn in Salt\`\` (e9100103)`,
        `8101,810102,${TIDEWATER_SHOW_ID},9100103,DateMatches`,
        '',
        `# ${anime} S01 \`\`Harbour Lights: A Look Back\`\` (e810106) → TMDB: no episode`,
        '8101,810106,0,0,None',
        '',
      ].join('\n'),
    );
  });

  it('round-trips: export, wipe, import gives back the same links, with or without comments', async () => {
    const before = await links();
    expect(before.episodes).toHaveLength(4);
    for (const IncludeComments of [false, true]) {
      const text = await exportText({ IncludeComments });
      await wipeLinks();
      await importOk(text, '?addMissingMovies=false&addMissingShows=false');
      expect(await links(), `IncludeComments ${IncludeComments}`).toEqual(before);
      // Importing the same file again changes nothing.
      await importOk(text, '?addMissingMovies=false&addMissingShows=false');
      expect(await links()).toEqual(before);
    }
  });

  it('adds, re-rates and (with removeExisting) replaces links; user-verified ratings stay', async () => {
    await seedLinks();
    await importOk(
      [
        EPISODE_HEADER,
        `8101,810101,${TIDEWATER_SHOW_ID},9100104,TitleMatches`,
        `8101,810102,${TIDEWATER_SHOW_ID},9100103,userverified`,
        `8101,810106,${TIDEWATER_SHOW_ID},9100100,DateMatches`,
        `8501,850101,${CLOCKWORK_SHOW_ID},9130101,FirstAvailable`,
        MOVIE_HEADER,
        `8301,830101,${CLOCKWORK_MOVIE_ID},FirstAvailable`,
      ].join('\r\n'),
      '?addMissingMovies=false&addMissingShows=false',
    );
    const episode = (anime: number, anidb: number, show: number, tmdb: number, ordering: number, rating: string) => ({
      anime_id: anime,
      anidb_episode_id: anidb,
      show_id: show,
      tmdb_episode_id: tmdb,
      ordering,
      rating,
    });
    expect(await links()).toEqual({
      // The user's movie link keeps its source; the movie the file does not list for the episode is gone.
      movies: [{ anime_id: MOVIE_ANIME, anidb_episode_id: 830101, movie_id: CLOCKWORK_MOVIE_ID, source: 'User' }],
      // The new anime's show is linked for its episode link, as the user's.
      shows: [
        { anime_id: SHOW_ANIME, show_id: TIDEWATER_SHOW_ID, source: 'Automatic' },
        { anime_id: UNSEEDED_ANIME, show_id: CLOCKWORK_SHOW_ID, source: 'User' },
        { anime_id: OTHER_ANIME, show_id: CLOCKWORK_SHOW_ID, source: 'User' },
      ],
      episodes: [
        episode(SHOW_ANIME, 810101, TIDEWATER_SHOW_ID, 9100104, 0, 'TitleMatches'),
        episode(SHOW_ANIME, 810102, TIDEWATER_SHOW_ID, 9100103, 0, 'UserVerified'),
        episode(SHOW_ANIME, 810106, TIDEWATER_SHOW_ID, 9100100, 0, 'DateMatches'),
        episode(OTHER_ANIME, 850101, CLOCKWORK_SHOW_ID, 9130101, 0, 'FirstAvailable'),
      ],
    });

    // removeExisting=false only adds: the new link goes after the kept one; the last of two equal lines wins.
    await importOk(
      [
        EPISODE_HEADER,
        `8101,810101,${TIDEWATER_SHOW_ID},9100101,TitleMatches`,
        `8101,810101,${TIDEWATER_SHOW_ID},9100101,DateMatches`,
        `8101,810102,${TIDEWATER_SHOW_ID},9100103,None`,
        '# a comment between sections',
        SHOW_HEADER,
        `8101,${TIDEWATER_SHOW_ID},UserVerified`,
      ].join('\n'),
      '?removeExisting=false&addMissingMovies=false&addMissingShows=false',
    );
    const after = await links();
    expect(after.shows[0]).toEqual({ anime_id: SHOW_ANIME, show_id: TIDEWATER_SHOW_ID, source: 'User' });
    expect(after.episodes.filter((x) => x.anidb_episode_id <= 810102)).toEqual([
      episode(SHOW_ANIME, 810101, TIDEWATER_SHOW_ID, 9100104, 0, 'TitleMatches'),
      episode(SHOW_ANIME, 810101, TIDEWATER_SHOW_ID, 9100101, 1, 'DateMatches'),
      episode(SHOW_ANIME, 810102, TIDEWATER_SHOW_ID, 9100103, 0, 'UserVerified'),
    ]);
  });

  it('refuses bad uploads with a Body error naming the line, and changes nothing', async () => {
    await seedLinks();
    const before = await links();
    const noFile = await server.app.inject({ method: 'POST', url: '/api/v3/Tmdb/Import', headers: { apikey: key } });
    expectBodyError(noFile, /Body cannot be empty/);
    expectBodyError(await server.request({ method: 'POST', url: '/api/v3/Tmdb/Import', key, body: { file: 'x' } }), /multipart/);
    expectBodyError(await importCsv(FULL_EXPORT, '', { field: 'upload' }), /form field `file`/);
    expectBodyError(await importCsv(''), /Body cannot be empty/);
    expectBodyError(await importCsv(`\n8101,${TIDEWATER_SHOW_ID},UserVerified\n`), /^Line 2: .*section header/);
    expectBodyError(await importCsv(`${SHOW_HEADER}\n# nothing else\n`), /no cross-references/);

    const bad = await importCsv(
      [
        SHOW_HEADER,
        `8101,${CLOCKWORK_SHOW_ID},UserVerified`,
        '8101,abc,UserVerified',
        `8101,${TIDEWATER_SHOW_ID},Perfect`,
        MOVIE_HEADER,
        `8301,830101,${PAPER_COMET_ADULT_ID}`,
        EPISODE_HEADER,
        `8101,810101,0,9100101,UserVerified`,
        `0,810101,${TIDEWATER_SHOW_ID},9100101,UserVerified`,
      ].join('\n'),
    );
    expect(bad.statusCode).toBe(400);
    const messages: string[] = bad.json().errors.Body;
    expect(messages.map((m) => m.split(':')[0])).toEqual(['Line 3', 'Line 4', 'Line 6', 'Line 8', 'Line 9']);
    expect(messages[1]).toMatch(/show cross-reference.*rating "Perfect"/);
    expect(messages[2]).toMatch(/movie cross-reference.*3 columns instead of 4/);
    expect(await links()).toEqual(before);

    // Files past the upload limit are refused before they are read.
    const huge = await importCsv(`${SHOW_HEADER}\n${'8101,1,None\n'.repeat(1_600_000)}`);
    expect(huge.statusCode).toBe(413);

    // Too many bad lines are counted, not listed.
    const many = await importCsv([SHOW_HEADER, ...Array.from({ length: 30 }, () => 'x,y,z')].join('\n'));
    expect(many.json().errors.Body).toHaveLength(21);
    expect(many.json().errors.Body[20]).toBe('10 more lines could not be read.');
  });

  it('keeps Import for admins', async () => {
    const res = await importCsv(FULL_EXPORT, '', { apiKey: viewerKey });
    expect(res.statusCode).toBe(403);
  });

  it('queues the download of linked TMDB movies and shows that are missing, for anime with a series', async () => {
    await seedLinks();
    await importOk(
      [
        MOVIE_HEADER,
        `8301,830101,${PAPER_COMET_ADULT_ID},UserVerified`,
        SHOW_HEADER,
        // The anime has no series: nothing is downloaded for it.
        `8501,${TIDEWATER_DRAMA_ID},UserVerified`,
      ].join('\n'),
    );
    await importOk([MOVIE_HEADER, `8301,830101,${PAPER_COMET_MOVIE_ID},UserVerified`].join('\n'), '?addMissingMovies=false');
    await server.services.queue.idle();
    const { store } = server.services.tmdb;
    expect(await store.movie(PAPER_COMET_ADULT_ID)).toBeDefined();
    expect(await store.movie(PAPER_COMET_MOVIE_ID)).toBeUndefined();
    expect(await store.show(TIDEWATER_DRAMA_ID)).toBeUndefined();

    await importOk([SHOW_HEADER, `8101,${CLOCKWORK_SHOW_ID},UserVerified`].join('\n'));
    await server.services.queue.idle();
    expect(await store.show(CLOCKWORK_SHOW_ID)).toBeDefined();
  });
});
