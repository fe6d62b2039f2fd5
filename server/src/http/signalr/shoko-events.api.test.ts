import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { Value } from '@sinclair/typebox/value';
import { AGGREGATE_HUB_PATH, EVENT_REVISION_HEADER, ShokoEvents, type ShokoEventName } from '@shoko-ts/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileCommands, startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../fakes/src/anidb-udp/index.js';
import { completeFirstRunWithAniDB, createTestServer, setEnv, type TestServer } from '../../test/harness.js';
import { inventedAnime } from '../../test/invented-anime.js';

const md4 = (data: Buffer) => createHash('md4').update(data).digest('hex').toUpperCase();

type Payload = Record<string, unknown>;
const EVENTS: ShokoEventName[] = [
  'FileDetected',
  'FileHashed',
  'FileMatched',
  'FileNotMatched',
  'FileRenamed',
  'FileMoved',
  'FileDeleted',
  'SeriesUpdated',
  'EpisodeUpdated',
];

/**
 * The `ShokoEvent` feed as Shokofin hears it: a real server on a loopback port, the official SignalR client over a
 * WebSocket, and each event caused the way a user would cause it (a scan, a rename, a move, hiding, a delete).
 */
describe('ShokoEvent feed of /signalr/aggregate', () => {
  let server: TestServer;
  let fake: FakeAniDBUdp;
  let connection: HubConnection;
  let key: string;
  let media: string;
  let restoreEnv: () => void;
  const known = randomBytes(40_000);
  const unknown = randomBytes(41_000);
  const heard: Array<{ event: ShokoEventName; payload: Payload }> = [];
  let wake: () => void = () => undefined;

  const api = (method: string, url: string, body?: unknown) => server.request({ method, url, key, body });
  const payloads = (event: ShokoEventName) => heard.filter((h) => h.event === event).map((h) => h.payload);
  const until = async (predicate: () => boolean) => {
    while (!predicate()) await new Promise<void>((resolve) => (wake = resolve));
  };

  beforeAll(async () => {
    fake = await startFakeAniDBUdp({
      users: { tester: 'secret1' },
      commands: fileCommands([{ size: known.length, ed2k: md4(known), fileId: 1, animeId: 70, episodeId: 700 }]),
    });
    restoreEnv = setEnv({ SHOKO_ANIDB_UDP: `${fake.host}:${fake.port}` });
    server = await createTestServer({
      services: {
        animeSource: {
          getAnime: async (id) => {
            if (id !== 70) throw new Error(`unknown anime ${id}`);
            return inventedAnime(70, 'Kaze no Michi', [700, 701]);
          },
        },
      },
    });
    key = await completeFirstRunWithAniDB(server, { username: 'tester', password: 'secret1' });
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const address = server.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    connection = new HubConnectionBuilder()
      .withUrl(`http://127.0.0.1:${address.port}${AGGREGATE_HUB_PATH}?feeds=shoko`, {
        transport: HttpTransportType.WebSockets,
        accessTokenFactory: () => key,
      })
      .configureLogging(LogLevel.None)
      .build();
    for (const event of EVENTS) {
      connection.on(`ShokoEvent:${event}`, (payload: Payload) => {
        heard.push({ event, payload });
        wake();
      });
    }
    await connection.start();
    media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-events-'));
    fs.mkdirSync(path.join(media, 'Kaze'));
    fs.writeFileSync(path.join(media, 'Kaze', 'Kaze 01.mkv'), known);
    fs.writeFileSync(path.join(media, 'mystery.mkv'), unknown);
  });

  afterAll(async () => {
    await connection?.stop();
    await server?.close();
    await fake?.close();
    fs.rmSync(media, { recursive: true, force: true });
    restoreEnv?.();
  });

  const fileEventShape = { FileID: expect.any(Number), FileLocationID: expect.any(Number), ImportFolderID: expect.any(Number) };

  it('announces detection, hashing, matching, a failed match and the new series while a folder imports', async () => {
    const folder = (await api('POST', '/api/v3/ImportFolder', { Name: 'Anime', Path: media, DropFolderType: 'Source' })).json();
    await api('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`);
    await server.services.queue.idle();
    await until(() => payloads('FileMatched').length > 0 && payloads('FileNotMatched').length > 0 && payloads('SeriesUpdated').length > 0);

    expect(
      payloads('FileDetected')
        .map((p) => p.RelativePath)
        .sort(),
    ).toEqual(['Kaze/Kaze 01.mkv', 'mystery.mkv']);
    expect(payloads('FileDetected').every((p) => p.ImportFolderID === folder.ID)).toBe(true);
    expect(payloads('FileHashed')).toHaveLength(2);
    for (const hashed of payloads('FileHashed')) expect(hashed).toMatchObject({ ...fileEventShape, ImportFolderID: folder.ID });

    const [matched] = payloads('FileMatched');
    expect(matched).toMatchObject({ ...fileEventShape, RelativePath: 'Kaze/Kaze 01.mkv' });
    expect(matched.CrossReferences).toEqual([
      expect.objectContaining({ AnidbEpisodeID: 700, AnidbAnimeID: 70, EpisodeID: expect.any(Number), SeriesID: expect.any(Number) }),
    ]);
    const [notMatched] = payloads('FileNotMatched');
    expect(notMatched).toMatchObject({ ...fileEventShape, RelativePath: 'mystery.mkv', HasCrossReferences: false, IsUDPBanned: false });
    expect(notMatched.AutoMatchAttempts).toEqual(expect.any(Number));

    const added = payloads('SeriesUpdated').find((p) => p.Reason === 'Added');
    expect(added).toMatchObject({ Source: 'AniDB', SeriesID: 70, ShokoSeriesIDs: [expect.any(Number)] });
    expect(added?.Episodes).toEqual([
      { Reason: 'Added', EpisodeID: 700, ShokoEpisodeIDs: [expect.any(Number)] },
      { Reason: 'Added', EpisodeID: 701, ShokoEpisodeIDs: [expect.any(Number)] },
    ]);
  });

  it('announces a rename and a move with the previous name and place', async () => {
    const file = (await api('GET', '/api/v3/File?pageSize=0&exclude=Unrecognized')).json().List[0];
    const location = file.Locations[0];
    let res = await api('POST', `/api/v3/Renamer/Relocate/Location/${location.ID}`, {
      ImportFolderID: location.ImportFolderID,
      RelativePath: 'Kaze/Kaze - 01.mkv',
    });
    expect(res.json()).toMatchObject({ IsSuccess: true });
    await until(() => payloads('FileRenamed').length > 0);
    expect(payloads('FileRenamed')[0]).toMatchObject({
      FileID: file.ID,
      FileLocationID: location.ID,
      RelativePath: 'Kaze/Kaze - 01.mkv',
      FileName: 'Kaze - 01.mkv',
      PreviousFileName: 'Kaze 01.mkv',
    });

    res = await api('POST', `/api/v3/Renamer/Relocate/Location/${location.ID}`, {
      ImportFolderID: location.ImportFolderID,
      RelativePath: 'Kaze no Michi/Kaze - 01.mkv',
    });
    expect(res.json()).toMatchObject({ IsSuccess: true });
    await until(() => payloads('FileMoved').length > 0);
    expect(payloads('FileMoved')[0]).toMatchObject({
      FileID: file.ID,
      RelativePath: 'Kaze no Michi/Kaze - 01.mkv',
      PreviousRelativePath: 'Kaze/Kaze - 01.mkv',
      PreviousImportFolderID: location.ImportFolderID,
    });
  });

  it('announces a hidden episode', async () => {
    const file = (await api('GET', '/api/v3/File?pageSize=0&exclude=Unrecognized&include=XRefs')).json().List[0];
    const seriesId = file.SeriesIDs[0].SeriesID.ID;
    const episodes = (await api('GET', `/api/v3/Series/${seriesId}/Episode?pageSize=0&includeMissing=true`)).json().List;
    const episode = episodes.find((e: { IDs: { AniDB: number } }) => e.IDs.AniDB === 701);
    expect((await api('POST', `/api/v3/Episode/${episode.IDs.ID}/SetHidden?value=true`)).statusCode).toBe(200);
    await until(() => payloads('EpisodeUpdated').length > 0);
    expect(payloads('EpisodeUpdated')[0]).toEqual({
      Source: 'AniDB',
      Reason: 'Updated',
      EpisodeID: 701,
      SeriesID: 70,
      ShokoEpisodeIDs: [episode.IDs.ID],
      ShokoSeriesIDs: [seriesId],
    });
  });

  it('announces a deleted file', async () => {
    const file = (await api('GET', '/api/v3/File?pageSize=0&include_only=Unrecognized')).json().List[0];
    const location = file.Locations[0];
    expect((await api('DELETE', `/api/v3/File/Location/${location.ID}`)).statusCode).toBe(200);
    await until(() => payloads('FileDeleted').length > 0);
    expect(payloads('FileDeleted')[0]).toMatchObject({ FileID: file.ID, FileLocationID: location.ID, RelativePath: 'mystery.mkv' });
    expect(fs.existsSync(path.join(media, 'mystery.mkv'))).toBe(false);
  });

  it('stamps every answer with the event revision of the moment its request arrived', async () => {
    const revisionOf = (res: { headers: Record<string, unknown> }) => Number(res.headers[EVENT_REVISION_HEADER.toLowerCase()]);
    const before = revisionOf(await api('GET', '/api/v3/File?pageSize=1'));
    expect(before).toBe(server.services.bus.revision);
    expect(revisionOf(await api('GET', '/api/v3/Init/Version'))).toBe(before);
    const file = (await api('GET', '/api/v3/File?pageSize=0&exclude=Unrecognized')).json().List[0];
    const location = file.Locations[0];
    const res = await api('POST', `/api/v3/Renamer/Relocate/Location/${location.ID}`, {
      ImportFolderID: location.ImportFolderID,
      RelativePath: 'Kaze no Michi/Kaze no Michi - 01.mkv',
    });
    // The answer to the request that raised the event was read before it.
    expect(revisionOf(res)).toBe(before);
    expect(revisionOf(await api('GET', '/api/v3/File?pageSize=1'))).toBeGreaterThan(before);
  });

  it('sent every payload in the shape the contract gives its event', () => {
    expect(new Set(heard.map((h) => h.event))).toEqual(new Set(EVENTS));
    const mismatches = heard.flatMap(({ event, payload }) =>
      [...Value.Errors(ShokoEvents[event], payload)].map((error) => `${event} ${error.path}: ${error.message}`),
    );
    expect(mismatches).toEqual([]);
  });
});
