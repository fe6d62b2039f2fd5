import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';
import { seedLibrary, TEST_SCRIPT, type SeededLibrary } from './renamer-fixtures.store.js';

const previewConfig = (script: string) => ({
  RenamerID: 'WebAOM',
  Name: 'Preview',
  Settings: [
    { Name: 'Script', Value: script },
    { Name: 'Max Episode Length', Value: 33 },
    { Name: 'Group Aware Sorting', Value: false },
  ],
});

describe('renamer API', () => {
  let server: TestServer;
  let key: string;
  let library: SeededLibrary;
  const api = (method: string, url: string, body?: unknown, apiKey = key) => server.request({ method, url, key: apiKey, body });

  const start = async (count: number, sidecarsFor: number[] = []) => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    library = await seedLibrary(server.services.db.kysely, path.join(server.home, 'library'), { count, sidecarsFor });
    const res = await api('PUT', '/api/v3/Renamer/Config/Default', {
      RenamerID: 'WebAOM',
      Name: 'Default',
      Settings: [{ Name: 'Script', Value: TEST_SCRIPT }],
    });
    expect(res.statusCode).toBe(200);
  };
  const restart = async () => {
    await server.close({ keepData: true });
    server = await createTestServer({ restartOf: server });
    server.services.init.startServer();
    await server.services.init.waitForStartup();
  };
  const locationsOf = (ids: number[]) =>
    server.services.db.kysely
      .selectFrom('file_locations')
      .select(['file_id', 'import_folder_id', 'relative_path'])
      .where('file_id', 'in', ids)
      .orderBy('file_id')
      .execute();
  const folderPath = (id: number) => (id === library.source.id ? library.source.path : library.destination.path);
  const treeOf = (root: string): string[] =>
    fs.existsSync(root)
      ? (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
          .filter((e) => e.isFile())
          .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
          .sort()
      : [];
  /** Every file is on disk exactly once, where the database says. */
  const expectConsistent = async () => {
    const locations = await locationsOf(library.fileIds);
    expect(locations).toHaveLength(library.fileIds.length);
    const videos = [...treeOf(library.source.path).map((p) => `S:${p}`), ...treeOf(library.destination.path).map((p) => `D:${p}`)].filter(
      (p) => p.endsWith('.mkv'),
    );
    expect(videos).toHaveLength(library.fileIds.length);
    for (const location of locations) {
      expect(fs.existsSync(path.join(folderPath(location.import_folder_id), location.relative_path)), location.relative_path).toBe(true);
    }
    const pending = await server.services.db.kysely
      .selectFrom('relocation_journal')
      .select('id')
      .where('state', 'in', ['planned', 'moved'])
      .execute();
    expect(pending).toEqual([]);
    return locations;
  };

  afterEach(async () => {
    await server?.close();
  });

  it('manages configs: list, create, conflict, type errors, rename, default rules, delete', async () => {
    await start(1);
    const renamers = (await api('GET', '/api/v3/Renamer')).json();
    expect(renamers[0]).toMatchObject({ RenamerID: 'WebAOM', Name: 'WebAOM Renamer', Enabled: true });
    expect(renamers[0].Settings.map((s: { Name: string; SettingType: string }) => `${s.Name}:${s.SettingType}`)).toEqual([
      'Max Episode Length:Integer',
      'Group Aware Sorting:Boolean',
      'Script:Code',
    ]);
    expect(renamers[0].Settings[0]).toMatchObject({ MinimumValue: 1, MaximumValue: 250 });
    expect(renamers[0].Settings[2].Language).toBe('PlainText');
    expect((await api('GET', '/api/v3/Renamer/Nope')).statusCode).toBe(404);

    expect((await api('GET', '/api/v3/Renamer/Config')).json().map((c: { Name: string }) => c.Name)).toEqual(['Default']);
    let res = await api('POST', '/api/v3/Renamer/Config', { Name: 'Mine', RenamerID: 'WebAOM', Settings: renamers[0].DefaultSettings });
    expect(res.statusCode).toBe(200);
    expect(res.json().Settings.find((s: { Name: string }) => s.Name === 'Max Episode Length').Value).toBe(33);
    res = await api('POST', '/api/v3/Renamer/Config', { Name: 'Mine', RenamerID: 'WebAOM', Settings: null });
    expect(res.statusCode).toBe(409);
    expect(res.body).toBe('Config with name Mine already exists');
    res = await api('POST', '/api/v3/Renamer/Config', { RenamerID: '' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual(['Name', 'RenamerID']);
    res = await api('POST', '/api/v3/Renamer/Config', { Name: 'X', RenamerID: 'Nope' });
    expect(res.statusCode).toBe(404);

    res = await api('PUT', '/api/v3/Renamer/Config/Mine', {
      Name: 'Mine',
      RenamerID: 'WebAOM',
      Settings: [{ Name: 'Max Episode Length', Value: 'long' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors['Settings[Max Episode Length].Value']).toEqual(['Value must be of type Int32']);
    res = await api('PUT', '/api/v3/Renamer/Config/Mine', {
      Name: 'Mine',
      RenamerID: 'WebAOM',
      Settings: [{ Name: 'Max Episode Length', Value: 500 }],
    });
    expect(res.statusCode).toBe(400);
    res = await api('PUT', '/api/v3/Renamer/Config/Mine', {
      Name: 'Mine',
      RenamerID: 'WebAOM',
      Settings: [{ Name: 'Max Episode Length', Value: 20 }],
    });
    expect(res.json().Settings.find((s: { Name: string }) => s.Name === 'Max Episode Length').Value).toBe(20);
    expect((await api('PUT', '/api/v3/Renamer/Config/Mine', { Name: 'Mine', RenamerID: 'WebAOM', Settings: [] })).body).toBe(
      'Settings are required for a put request',
    );

    res = await api('PATCH', '/api/v3/Renamer/Config/Mine', [{ op: 'replace', path: '/Name', value: 'Default' }]);
    expect(res.statusCode).toBe(409);
    res = await api('PATCH', '/api/v3/Renamer/Config/Mine', [{ op: 'replace', path: '/Name', value: 'Mine 2' }]);
    expect(res.statusCode).toBe(200);
    expect((await api('GET', `/api/v3/Renamer/Config/${encodeURIComponent('Mine 2')}`)).json().Name).toBe('Mine 2');
    expect((await api('GET', `/api/v3/Renamer/Config/${encodeURIComponent('Mine 2')}/Renamer`)).json().RenamerID).toBe('WebAOM');

    res = await api('DELETE', '/api/v3/Renamer/Config/Default');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.Body).toEqual(['Default renamer config cannot be deleted!']);
    // Renaming the default config moves the setting along.
    expect((await api('PATCH', '/api/v3/Renamer/Config/Default', [{ op: 'replace', path: '/Name', value: 'Main' }])).statusCode).toBe(200);
    expect(server.services.settings.current.Plugins.Renamer.DefaultRenamer).toBe('Main');
    expect((await api('DELETE', `/api/v3/Renamer/Config/${encodeURIComponent('Mine 2')}`)).statusCode).toBe(200);
    expect((await api('GET', '/api/v3/Renamer/Config')).json().map((c: { Name: string }) => c.Name)).toEqual(['Main']);

    const user = await createUser(server, key, 'viewer', 'viewer-pass');
    expect((await api('GET', '/api/v3/Renamer/Config', undefined, user.key)).statusCode).toBe(200);
    expect((await api('POST', '/api/v3/Renamer/Config', { Name: 'U', RenamerID: 'WebAOM' }, user.key)).statusCode).toBe(403);
    expect((await api('POST', '/api/v3/Renamer/Preview', { FileIDs: [1] }, user.key)).statusCode).toBe(403);
  });

  it('previews names and destinations without touching the disk; script errors are per-file failures', async () => {
    await start(3);
    const [a, b] = library.fileIds;
    let res = await api('POST', '/api/v3/Renamer/Preview?move=true&rename=true', {
      FileIDs: [a, 99999, b],
      Config: previewConfig(TEST_SCRIPT),
    });
    expect(res.statusCode).toBe(200);
    const results = res.json();
    expect(results[0]).toMatchObject({
      FileID: a,
      IsSuccess: true,
      IsPreview: true,
      IsRelocated: true,
      ImportFolderID: library.destination.id,
      RelativePath: expect.stringMatching(/^Renamer Test Anime\/Renamer Test Anime - 01 \[[0-9A-F]{8}\]\.mkv$/),
    });
    expect(results[0].ConfigName).toBeUndefined();
    expect(results[0].AbsolutePath).toBe(path.join(library.destination.path, results[0].RelativePath));
    expect(results[1]).toEqual({ FileID: 99999, IsSuccess: false, IsPreview: true, ErrorMessage: 'Unable to find File with ID 99999' });
    expect(treeOf(library.destination.path)).toEqual([]);

    res = await api('POST', '/api/v3/Renamer/Preview?move=false&rename=true', {
      FileIDs: [a],
      Config: previewConfig("DO ADD '%eng %epn'"),
    });
    expect(res.json()[0]).toMatchObject({
      ImportFolderID: library.source.id,
      RelativePath: 'incoming/Renamer Test EN Episode Title 1.mkv',
    });

    res = await api('POST', '/api/v3/Renamer/Preview?move=false&rename=true', { FileIDs: [a], Config: previewConfig("DO ADD '%kan'") });
    expect(res.json()[0]).toMatchObject({ IsSuccess: false, ErrorMessage: 'No Japanese (kanji) anime title is known for this file.' });
    res = await api('POST', '/api/v3/Renamer/Preview?move=false&rename=true', { FileIDs: [a], Config: previewConfig('require("fs")') });
    expect(res.json()[0]).toMatchObject({ IsSuccess: false, ErrorMessage: 'Line 1: a line starts with DO or IF.' });

    // Saved config preview, and the default config when none is given.
    res = await api('POST', '/api/v3/Renamer/Config/Default/Preview?move=false&rename=true', [a]);
    expect(res.json()[0]).toMatchObject({
      ConfigName: 'Default',
      RelativePath: expect.stringMatching(/^incoming\/Renamer Test Anime - 01/),
    });
    res = await api('POST', '/api/v3/Renamer/Preview?rename=true&move=false', { FileIDs: [b] });
    expect(res.json()[0].RelativePath).toMatch(/- 02 \[/);
    res = await api('POST', '/api/v3/Renamer/Preview', { FileIDs: [a], Config: { RenamerID: 'WebAOM', Name: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.Name).toBeDefined();
  });

  it('relocates real files with their sidecars, refuses collisions, prunes empty folders and undoes the batch', async () => {
    await start(4, [0]);
    const [a, b, c, d] = library.fileIds;
    // Something already sits where file c would go: it must be refused, nothing overwritten.
    const preview = (
      await api('POST', '/api/v3/Renamer/Preview?move=true&rename=true', { FileIDs: [c], Config: previewConfig(TEST_SCRIPT) })
    ).json()[0];
    fs.mkdirSync(path.dirname(preview.AbsolutePath), { recursive: true });
    fs.writeFileSync(preview.AbsolutePath, 'someone else');

    let res = await api('POST', '/api/v3/Renamer/Config/Default/Relocate?move=true&rename=true&deleteEmptyDirectories=true', [
      a,
      b,
      c,
      424242,
    ]);
    expect(res.statusCode).toBe(200);
    const batchId = res.headers['x-relocation-batch'] as string;
    const results = res.json();
    expect(results[0]).toMatchObject({
      FileID: a,
      IsSuccess: true,
      IsRelocated: true,
      ConfigName: 'Default',
      ImportFolderID: library.destination.id,
    });
    expect(results[0].IsPreview).toBeUndefined();
    expect(results[2]).toMatchObject({
      FileID: c,
      IsSuccess: false,
      ErrorMessage: expect.stringMatching(/^Not moving: a file already exists/),
    });
    expect(results[3]).toMatchObject({ FileID: 424242, IsSuccess: false, ErrorMessage: 'Unable to find File with ID 424242' });
    expect(fs.readFileSync(preview.AbsolutePath, 'utf8')).toBe('someone else');

    const newName = path.basename(results[0].RelativePath, '.mkv');
    expect(treeOf(library.destination.path)).toEqual(
      [
        `Renamer Test Anime/${newName}.ass`,
        `Renamer Test Anime/${newName}.en.srt`,
        results[0].RelativePath,
        results[1].RelativePath,
        preview.RelativePath,
      ]
        .map((p) => p.replace(/^Renamer Test Anime\//, 'Renamer Test Anime/'))
        .sort(),
    );
    expect(treeOf(library.source.path)).toEqual([library.paths.get(c)!, library.paths.get(d)!].sort());
    const locations = await locationsOf([a, b, c]);
    expect(locations.map((l) => [l.import_folder_id, l.relative_path])).toEqual([
      [library.destination.id, results[0].RelativePath],
      [library.destination.id, results[1].RelativePath],
      [library.source.id, library.paths.get(c)],
    ]);

    // Both flags off is a per-file failure.
    res = await api('POST', '/api/v3/Renamer/Config/Default/Relocate?move=false&rename=false', [d]);
    expect(res.json()[0].ErrorMessage).toBe('Rename and Move are both set to false. Nothing to do.');

    const batches = (await api('GET', '/api/v3/Renamer/Journal')).json();
    expect(batches.find((x: { BatchID: string }) => x.BatchID === batchId)).toMatchObject({ Files: 2, Committed: 2, Undone: false });
    res = await api('POST', `/api/v3/Renamer/Journal/${batchId}/Undo`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ Restored: 2, Failed: [] });
    fs.rmSync(preview.AbsolutePath);
    await expectConsistent();
    expect(treeOf(library.source.path)).toEqual(
      [...library.paths.values(), 'incoming/[Raw] ep 1.ass', 'incoming/[Raw] ep 1.en.srt'].sort(),
    );
    expect(treeOf(library.destination.path)).toEqual([]);
    expect((await api('POST', '/api/v3/Renamer/Journal/nope/Undo')).statusCode).toBe(404);
  });

  it('moves one location to an explicit path but never outside its import folder', async () => {
    await start(1);
    const [a] = library.fileIds;
    const [location] = await server.services.db.kysely.selectFrom('file_locations').select('id').where('file_id', '=', a).execute();
    let res = await api('POST', `/api/v3/Renamer/Relocate/Location/${location.id}`, {
      ImportFolderID: library.destination.id,
      RelativePath: '../escape.mkv',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('The provided relative path leads outside the import folder.');
    res = await api('POST', `/api/v3/Renamer/Relocate/Location/${location.id}`, { ImportFolderID: 999, RelativePath: 'x.mkv' });
    expect(res.body).toBe('Unknown import folder with the given id `999`.');
    // A symbolic link inside the folder that leads out of it is refused too.
    const outside = path.join(server.home, 'outside');
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(library.destination.path, 'link'));
    res = await api('POST', `/api/v3/Renamer/Relocate/Location/${location.id}`, {
      ImportFolderID: library.destination.id,
      RelativePath: 'link/x.mkv',
    });
    expect(res.json()).toMatchObject({ IsSuccess: false, ErrorMessage: 'The provided relative path leads outside the import folder.' });
    expect(fs.readdirSync(outside)).toEqual([]);
    const events: Array<{ event: string; payload: Record<string, unknown> }> = [];
    server.services.bus.on('shoko', (e) => events.push(e as { event: string; payload: Record<string, unknown> }));
    res = await api('POST', `/api/v3/Renamer/Relocate/Location/${location.id}`, {
      ImportFolderID: library.destination.id,
      RelativePath: 'Manual/Name.mkv',
    });
    expect(res.json()).toMatchObject({ IsSuccess: true, IsRelocated: true, RelativePath: 'Manual/Name.mkv' });
    expect(fs.existsSync(path.join(library.destination.path, 'Manual/Name.mkv'))).toBe(true);
    // The hub hears a move for a new directory and a rename for a new name in the same directory.
    expect(events.find((e) => e.event === 'FileMoved')?.payload).toMatchObject({
      FileID: a,
      RelativePath: 'Manual/Name.mkv',
      ImportFolderID: library.destination.id,
    });
    res = await api('POST', `/api/v3/Renamer/Relocate/Location/${location.id}`, {
      ImportFolderID: library.destination.id,
      RelativePath: 'Manual/Other Name.mkv',
    });
    expect(res.json()).toMatchObject({ IsSuccess: true });
    expect(events.find((e) => e.event === 'FileRenamed')?.payload).toMatchObject({
      FileID: a,
      FileName: 'Other Name.mkv',
      PreviousFileName: 'Name.mkv',
    });
  });

  it('gives files moved by a config the owner and mode of settings Linux, and keeps Import.Exclude directories when pruning', async () => {
    await start(1);
    const [a] = library.fileIds;
    await server.services.settings.update((s) => {
      s.Linux = { UID: process.getuid!(), GID: process.getgid!(), Permission: 0o640 };
      s.Import.Exclude = [...s.Import.Exclude, '[\\\\/]incoming[\\\\/]'];
    });
    const before = fs.statSync(path.join(library.source.path, library.paths.get(a)!)).mode & 0o777;
    expect(before).not.toBe(0o640);
    const res = await api('POST', '/api/v3/Renamer/Relocate?move=true&rename=true&deleteEmptyDirectories=true', [a]);
    const [result] = res.json();
    expect(result).toMatchObject({ IsSuccess: true, IsRelocated: true });
    expect(fs.statSync(result.AbsolutePath).mode & 0o777).toBe(0o640);
    // The emptied directory matches an exclude pattern, so it stays.
    expect(fs.readdirSync(path.join(library.source.path, 'incoming'))).toEqual([]);

    // A move to an explicit path leaves owner and mode alone.
    await server.services.settings.update((s) => {
      s.Linux.Permission = 0o600;
    });
    const [location] = await server.services.db.kysely.selectFrom('file_locations').select('id').where('file_id', '=', a).execute();
    const moved = (
      await api('POST', `/api/v3/Renamer/Relocate/Location/${location.id}`, {
        ImportFolderID: library.destination.id,
        RelativePath: 'Manual/Kept.mkv',
      })
    ).json();
    expect(moved).toMatchObject({ IsSuccess: true });
    expect(fs.statSync(path.join(library.destination.path, 'Manual/Kept.mkv')).mode & 0o777).toBe(0o640);
  });

  it('renames and moves on import through a queued job, per Plugins.Renamer settings', async () => {
    await start(2, [0]);
    const [a, b] = library.fileIds;
    const renamer = server.services.renamer;
    expect(await renamer.queueRenameOnImport([a])).toBe(0);
    expect(await renamer.renameOnImport(a)).toEqual([]);
    await server.services.settings.update((s) => {
      s.Plugins.Renamer.RenameOnImport = true;
      s.Plugins.Renamer.MoveOnImport = true;
    });
    expect(await renamer.queueRenameOnImport([a, b])).toBe(2);
    await server.services.queue.idle();
    const locations = await expectConsistent();
    expect(locations.map((l) => [l.import_folder_id, l.relative_path])).toEqual([
      [library.destination.id, expect.stringMatching(/^Renamer Test Anime\/Renamer Test Anime - 01 \[[0-9A-F]{8}\]\.mkv$/)],
      [library.destination.id, expect.stringMatching(/^Renamer Test Anime\/Renamer Test Anime - 02 /)],
    ]);
    expect(treeOf(library.destination.path).filter((p) => p.endsWith('.ass'))).toHaveLength(1);
    expect(fs.existsSync(path.join(library.source.path, 'incoming'))).toBe(false);
  });

  it('recovers a crash between the steps of a relocation on the next start', async () => {
    await start(6, [1, 4]);
    const ids = library.fileIds;
    // Crash 1: after the journal entry is written, before the disk is touched (file 2, index 1).
    let moves = 0;
    server.services.renamer.relocator.stepHook = (step) => {
      if (step === 'planned' && ++moves === 2) throw new Error('simulated crash');
    };
    let res = await api('POST', '/api/v3/Renamer/Config/Default/Relocate?move=true&rename=true', ids.slice(0, 3));
    expect(res.statusCode).toBe(500);
    await restart();
    let locations = await expectConsistent();
    expect(locations[0].import_folder_id).toBe(library.destination.id);
    expect(locations[1].import_folder_id).toBe(library.source.id);
    expect(fs.existsSync(path.join(library.source.path, 'incoming/[Raw] ep 2.ass'))).toBe(true);

    // Crash 2: after the move on disk, before the database commit (file 5 with sidecars, index 4).
    server.services.renamer.relocator.stepHook = (step, plan) => {
      if (step === 'moved' && plan.fileId === ids[4]) throw new Error('simulated crash');
    };
    res = await api('POST', '/api/v3/Renamer/Config/Default/Relocate?move=true&rename=true', ids.slice(3));
    expect(res.statusCode).toBe(500);
    // Before recovery the database still points at the old path while the file is at the new one.
    expect((await locationsOf([ids[4]]))[0].import_folder_id).toBe(library.source.id);
    await restart();
    locations = await expectConsistent();
    expect(locations[4].import_folder_id).toBe(library.destination.id);
    const base = path.basename(locations[4].relative_path, '.mkv');
    expect(fs.existsSync(path.join(library.destination.path, path.dirname(locations[4].relative_path), `${base}.en.srt`))).toBe(true);
    expect(locations[5].import_folder_id).toBe(library.source.id);
  });
});
