import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogEvent } from '@shoko-ts/contract';
import { EventBus } from '../../events/bus.js';
import { LogService } from './log.service.js';
import { localDay } from './log-rotation.js';

const quiet = { Enabled: false, Zip: false, Delete: false, Delete_Days: '' };

describe('LogService', () => {
  let home: string;
  let bus: EventBus;
  let service: LogService;

  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), 'shoko-logs-'));
    bus = new EventBus();
    service = LogService.create({ home, bus });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await service.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('records Info and above as contract LogEvents and announces each on the bus', () => {
    const announced: LogEvent[] = [];
    bus.on('log', (entry) => announced.push(entry));
    const log = service.logger.child({ name: 'Init' });
    log.debug('hidden while TraceLog is off');
    log.info('Starting server');
    log.error({ err: new Error('disk full') }, 'Hashing failed');
    log.warn(new Error('only an error'));

    const backlog = service.backlog();
    expect(backlog.map((e) => [e.Level, e.LoggerName, e.Message])).toEqual([
      ['Info', 'Init', 'Starting server'],
      ['Error', 'Init', 'Hashing failed: disk full'],
      ['Warn', 'Init', 'only an error'],
    ]);
    expect(backlog[0].TimeStamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(backlog[0].Caller).toBe('::');
    expect(announced).toEqual(backlog);
  });

  it('produces Trace and Debug only while TraceLog is on, also for loggers created earlier', () => {
    const log = service.logger.child({ name: 'Queue' });
    service.applySettings({ TraceLog: true, LogRotator: quiet });
    log.trace('t');
    log.debug('d');
    service.applySettings({ TraceLog: false, LogRotator: quiet });
    log.debug('not kept');
    expect(service.backlog().map((e) => `${e.Level}:${e.Message}`)).toEqual(['Trace:t', 'Debug:d']);
  });

  it('keeps the 5000 most recent entries, oldest first', () => {
    for (let i = 0; i < 5003; i++) service.logger.info(`m${i}`);
    const backlog = service.backlog();
    expect(backlog).toHaveLength(5000);
    expect(backlog[0].Message).toBe('m3');
    expect(backlog[4999].Message).toBe('m5002');
  });

  it('suppresses settings lines about credentials and masks known secret values', () => {
    service.applySettings({
      TraceLog: false,
      LogRotator: quiet,
      AniDb: { Username: 'me', Password: 'hunter2-secret' },
    } as Parameters<LogService['applySettings']>[0]);
    const log = service.logger.child({ name: 'Settings' });
    log.info('Settings.AniDb.Password changed to hunter2-secret');
    log.info('Settings.Language.SeriesTitleLanguages changed');
    log.info('AniDB login as me with hunter2-secret');
    log.info('GET /signalr/logging?id=abc&access_token=abcdef123456');
    log.info('Authorization: Bearer abcdef123456');

    const messages = service.backlog().map((e) => e.Message);
    expect(messages).toEqual([
      'Settings.Language.SeriesTitleLanguages changed',
      'AniDB login as me with ***',
      'GET /signalr/logging?id=abc&access_token=***',
      'Authorization: Bearer ***',
    ]);
  });

  it("writes human-readable lines to today's file", async () => {
    service.logger.child({ name: 'Init' }).info('hello file');
    await service.close();
    const file = path.join(home, 'logs', `shoko-${localDay(new Date())}.log`);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} Info {2}\[Init\] hello file\n$/);
  });

  it('switches to a new file at day change and compresses the previous day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2030, 0, 15, 23, 59, 0));
    service.applySettings({ TraceLog: false, LogRotator: { Enabled: true, Zip: true, Delete: false, Delete_Days: '' } });
    service.logger.info('late on the 15th');
    vi.setSystemTime(new Date(2030, 0, 16, 0, 1, 0));
    service.logger.info('early on the 16th');
    await service.rotate();

    const dir = path.join(home, 'logs');
    expect(readdirSync(dir).sort()).toEqual(['shoko-2030-01-15.log.gz', 'shoko-2030-01-16.log']);
    expect(gunzipSync(readFileSync(path.join(dir, 'shoko-2030-01-15.log.gz'))).toString()).toContain('late on the 15th');
  });
});

describe('log rotation', () => {
  let home: string;
  let dir: string;
  let service: LogService;
  const daysAgo = (n: number) => {
    const now = new Date();
    return localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - n));
  };

  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), 'shoko-rotate-'));
    dir = path.join(home, 'logs');
    mkdirSync(dir, { recursive: true });
    for (const n of [0, 1, 3, 10]) writeFileSync(path.join(dir, `shoko-${daysAgo(n)}.log`), `log of ${n} days ago\n`);
    writeFileSync(path.join(dir, `shoko-${daysAgo(20)}.log.gz`), 'old archive');
    writeFileSync(path.join(dir, 'notes.txt'), 'not a log');
    service = LogService.create({ home, bus: new EventBus() });
  });
  afterEach(async () => {
    await service.close();
    rmSync(home, { recursive: true, force: true });
  });

  const files = () => readdirSync(dir).sort();

  it('gzips earlier days and deletes files older than Delete_Days, leaving today and other files alone', async () => {
    service.applySettings({ TraceLog: false, LogRotator: { Enabled: true, Zip: true, Delete: true, Delete_Days: '7' } });
    await service.rotate();
    expect(files()).toEqual([`shoko-${daysAgo(0)}.log`, `shoko-${daysAgo(1)}.log.gz`, `shoko-${daysAgo(3)}.log.gz`, 'notes.txt'].sort());
    expect(gunzipSync(readFileSync(path.join(dir, `shoko-${daysAgo(3)}.log.gz`))).toString()).toBe('log of 3 days ago\n');
  });

  it('never deletes when Delete_Days is empty', async () => {
    service.applySettings({ TraceLog: false, LogRotator: { Enabled: true, Zip: true, Delete: true, Delete_Days: '' } });
    await service.rotate();
    expect(existsSync(path.join(dir, `shoko-${daysAgo(20)}.log.gz`))).toBe(true);
    expect(existsSync(path.join(dir, `shoko-${daysAgo(10)}.log.gz`))).toBe(true);
    expect(existsSync(path.join(dir, `shoko-${daysAgo(10)}.log`))).toBe(false);
  });

  it('deletes without compressing when Zip is off, and does nothing when disabled', async () => {
    service.applySettings({ TraceLog: false, LogRotator: { Enabled: false, Zip: true, Delete: true, Delete_Days: '2' } });
    await service.rotate();
    expect(files()).toHaveLength(6);

    service.applySettings({ TraceLog: false, LogRotator: { Enabled: true, Zip: false, Delete: true, Delete_Days: '2' } });
    await service.rotate();
    expect(files()).toEqual([`shoko-${daysAgo(0)}.log`, `shoko-${daysAgo(1)}.log`, 'notes.txt'].sort());
  });
});
