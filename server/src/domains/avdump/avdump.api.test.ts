import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, setEnv, type TestServer } from '../../test/harness.js';

const FAKE_AVDUMP = fileURLToPath(new URL('../../../../fakes/bin/avdump3', import.meta.url));

describe('AVDump', () => {
  let server: TestServer;
  let key: string;
  let media: string;
  let argsLog: string;
  let fileIds: number[];
  let restoreEnv: () => void;
  const events: Array<{ Type: string } & Record<string, unknown>> = [];
  const api = (method: string, url: string, body?: unknown) => server.request({ method, url, key, body });
  const runs = () =>
    fs.existsSync(argsLog)
      ? fs
          .readFileSync(argsLog, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as string[])
      : [];
  const setKey = (value: string | null) =>
    server.services.settings.update((s) => {
      s.AniDb.Username = 'dumper';
      s.AniDb.AVDumpKey = value;
    });

  beforeAll(async () => {
    media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-avdump-'));
    argsLog = path.join(media, 'avdump-args.log');
    fs.mkdirSync(path.join(media, 'library'));
    fs.writeFileSync(path.join(media, 'library', 'Unknown 01.mkv'), randomBytes(40_000));
    fs.writeFileSync(path.join(media, 'library', 'Unknown 02.mkv'), randomBytes(50_000));
    restoreEnv = setEnv({ SHOKO_AVDUMP: FAKE_AVDUMP, FAKE_AVDUMP_LOG: argsLog, FAKE_AVDUMP_SCENARIO: 'ok' });
    server = await createTestServer();
    key = await completeFirstRun(server);
    server.services.bus.on('avdump', (event) => events.push(event as { Type: string }));
    const folder = (
      await api('POST', '/api/v3/ImportFolder', { Name: 'Library', Path: path.join(media, 'library'), DropFolderType: 'None' })
    ).json();
    await api('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`);
    await server.services.queue.idle();
    fileIds = (await api('GET', '/api/v3/File?pageSize=0'))
      .json()
      .List.map((f: { ID: number }) => f.ID)
      .sort();
    expect(fileIds).toHaveLength(2);
  });
  afterAll(async () => {
    await server.close();
    restoreEnv();
    fs.rmSync(media, { recursive: true, force: true });
  });
  beforeEach(() => {
    events.length = 0;
    process.env.FAKE_AVDUMP_SCENARIO = 'ok';
  });

  it('reports the installed tool and refuses to download one', async () => {
    expect((await api('GET', '/api/v3/AVDump/Status')).json()).toEqual({
      Installed: true,
      InstalledVersion: '8300',
      ExpectedVersion: '8300',
    });
    expect((await api('POST', '/api/v3/AVDump/Update?force=true')).json()).toBe(false);
  });

  it('validates a dump request: key, ids, paths, all at once', async () => {
    await setKey(null);
    let res = await api('POST', '/api/v3/AVDump/DumpFiles', { FileIDs: [fileIds[0], 999999] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ Settings: ['Missing AVDump API key'], FileIDs: ['No file with id 999999'] });
    res = await api('POST', '/api/v3/AVDump/DumpFiles', { FileIDs: [] });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['FileIDs']);
    expect((await api('POST', '/api/v3/File/999999/AVDump')).statusCode).toBe(404);
    expect(runs().filter((args) => args[0] !== '--Version')).toEqual([]);
  });

  it('dumps files in one queued session, streams its events and records the dump on each file', async () => {
    await setKey('secret-udp-key');
    const res = await api('POST', '/api/v3/AVDump/DumpFiles', { FileIDs: fileIds, Priority: false });
    expect(res.statusCode).toBe(200);
    await server.services.queue.idle();
    const [args] = runs().slice(-1);
    expect(args).toEqual(
      expect.arrayContaining([
        '--Auth=dumper:secret-udp-key',
        '--LPort=4557',
        '--PrintEd2kLink=true',
        '--Consumers=ED2K',
        '--Timeout=20:3',
        '--Concurrent=1',
      ]),
    );
    expect(
      args
        .filter((a) => !a.startsWith('--'))
        .map((a) => path.basename(a))
        .sort(),
    ).toEqual(['Unknown 01.mkv', 'Unknown 02.mkv']);

    const types = events.map((e) => e.Type);
    expect(types[0]).toBe('Started');
    expect(types).toContain('Progress');
    expect(types).toContain('CreqUpdate');
    expect(types.filter((t) => t === 'ED2KLink')).toHaveLength(2);
    const success = events.find((e) => e.Type === 'Success')!;
    expect(success).toMatchObject({ VideoIDs: fileIds, Progress: 100 });
    expect(success.ed2ks).toHaveLength(2);
    expect(success.ErrorMessage).toBeUndefined();
    const progress = events.filter((e) => e.Type === 'Progress').map((e) => e.Progress as number);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const file = (await api('GET', `/api/v3/File/${fileIds[0]}`)).json();
    expect(file.AVDump).toMatchObject({ Status: null, LastVersion: '8300', LastDumpedAt: expect.any(String) });
  });

  it('reports bad credentials, timeouts and tool errors as failures without recording a dump', async () => {
    await setKey('secret-udp-key');
    const before = (await api('GET', `/api/v3/File/${fileIds[1]}`)).json().AVDump.LastDumpedAt;
    for (const scenario of ['bad-credentials', 'timeout', 'stderr', 'partial']) {
      events.length = 0;
      process.env.FAKE_AVDUMP_SCENARIO = scenario;
      expect((await api('POST', `/api/v3/File/${fileIds[1]}/AVDump`)).statusCode).toBe(200);
      const types = events.map((e) => e.Type);
      expect(types, scenario).toContain('Failure');
      expect(types, scenario).not.toContain('Success');
      if (scenario === 'bad-credentials') expect(types).toContain('InvalidCredentials');
      if (scenario === 'timeout') expect(types).toContain('Timeout');
      if (scenario === 'stderr') {
        expect(types).toContain('Error');
        expect(events.find((e) => e.Type === 'Failure')!.ErrorMessage).toContain('could not be read');
      }
    }
    expect((await api('GET', `/api/v3/File/${fileIds[1]}`)).json().AVDump.LastDumpedAt).toBe(before);
  });

  it('says clearly when AVDump is not installed', async () => {
    await setKey('secret-udp-key');
    const restore = setEnv({ SHOKO_AVDUMP: path.join(media, 'no-such-avdump'), PATH: '/nonexistent' });
    try {
      const res = await api('POST', '/api/v3/AVDump/DumpFiles', { FileIDs: [fileIds[0]] });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.AVDump[0]).toMatch(/^AVDump3 is not installed on this server/);
      expect((await api('GET', '/api/v3/AVDump/Status')).json()).toMatchObject({ Installed: false, InstalledVersion: null });
    } finally {
      restore();
    }
  });
});
