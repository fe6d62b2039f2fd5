import { describe, expect, it } from 'vitest';
import { systemLocation } from './system-locations.js';

const home = '/srv/shoko/data';

describe('systemLocation', () => {
  it.each([
    '/',
    '/etc',
    '/etc/ssl',
    '/proc/self',
    '/sys',
    '/dev/shm',
    '/boot',
    '/run/user',
    '/usr/lib',
    '/root',
    '/root/anime',
    '/var/lib',
    '/var/lib/docker/volumes/x',
  ])('refuses %s as an import folder', (folder) => {
    expect(systemLocation(folder, home, true)).toMatchObject({ refused: true });
  });

  it('lets the browser list the root, but not inside system folders', () => {
    expect(systemLocation('/', home, false)).toEqual({ refused: false });
    expect(systemLocation('/proc/self', home, false)).toMatchObject({
      refused: true,
      reason: '/proc/self is inside the system folder /proc.',
    });
    expect(systemLocation('/etc/../etc/passwd', home, false)).toMatchObject({ refused: true });
  });

  it('refuses the data folder, anything inside it and its parents, not media beside it', () => {
    expect(systemLocation('/srv/shoko/data', home, true)).toMatchObject({ refused: true });
    expect(systemLocation('/srv', home, true)).toMatchObject({ refused: true });
    expect(systemLocation('/srv/shoko/data/SQLite', home, true)).toMatchObject({ refused: true });
    expect(systemLocation('/srv/shoko/data/images/AniDB', home, true)).toMatchObject({ refused: true });
    expect(systemLocation('/srv/shoko/data/library', home, true)).toEqual({
      refused: true,
      reason: "/srv/shoko/data/library is inside the server's own data folder (/srv/shoko/data).",
    });
    expect(systemLocation('/srv/shoko/data/../library', home, true)).toEqual({ refused: false });
    expect(systemLocation('/srv/shoko/library', home, true)).toEqual({ refused: false });
    expect(systemLocation('/srv/shoko/data-library', home, true)).toEqual({ refused: false });
    expect(systemLocation('/srv/shoko/data', home, false)).toEqual({ refused: false });
    expect(systemLocation('/mnt/anime', home, true)).toEqual({ refused: false });
  });

  it('refuses the system folders in Linux container layouts, not look-alike names beside them', () => {
    expect(systemLocation('/var/lib/shoko', home, true)).toMatchObject({ reason: '/var/lib/shoko is inside the system folder /var/lib.' });
    expect(systemLocation('/var/media', home, true)).toEqual({ refused: false });
    expect(systemLocation('/rootfs/anime', home, true)).toEqual({ refused: false });
    expect(systemLocation('/usrdata', home, true)).toEqual({ refused: false });
  });

  it('refuses Windows system folders and drive roots as import folders', () => {
    expect(systemLocation('C:\\Windows\\System32', home, true)).toMatchObject({ refused: true });
    expect(systemLocation('c:/Program Files/Shoko', home, false)).toMatchObject({ refused: true });
    expect(systemLocation('D:\\', home, true)).toMatchObject({ refused: true });
    expect(systemLocation('D:\\', home, false)).toEqual({ refused: false });
    expect(systemLocation('D:\\Anime', home, true)).toEqual({ refused: false });
  });
});
