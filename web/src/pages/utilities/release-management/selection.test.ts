import { describe, expect, it } from 'vitest';
import type { File, ReleaseEpisode } from '@shoko-ts/contract';
import type { QuickSelectGroup } from '@/api/releaseManagement';
import { initialOptions, itemTypeOf, planEpisode, planQuickSelect } from './selection';

const location = (id: number, fileId: number, path: string) => ({
  ID: id,
  FileID: fileId,
  ImportFolderID: 1,
  RelativePath: path,
  AbsolutePath: `/lib/${path}`,
  IsAccessible: true,
});
const file = (id: number, paths: Array<[number, string]>, isVariation = false) =>
  ({ ID: id, Size: 1, IsVariation: isVariation, Locations: paths.map(([lid, p]) => location(lid, id, p)) }) as unknown as File;
const episode = (id: number, files: File[]) => ({ IDs: { ID: id }, Name: `Episode ${id}`, Files: files }) as unknown as ReleaseEpisode;

describe('release management selection', () => {
  it('treats unknown tabs as multiples', () => {
    expect(itemTypeOf('duplicates').api).toBe('DuplicateFiles');
    expect(itemTypeOf('missing-episodes').api).toBe('MissingEpisodes');
    expect(itemTypeOf('whatever').key).toBe('multiples');
    expect(itemTypeOf(undefined).empty).toBe('No series with multiple releases!');
  });

  it('starts variations as variation and everything else as keep; duplicates by location', () => {
    const ep = episode(1, [
      file(10, [[100, 'a.mkv']]),
      file(
        11,
        [
          [110, 'b.mkv'],
          [111, 'c.mkv'],
        ],
        true,
      ),
    ]);
    expect([...initialOptions('MultipleReleases', ep)]).toEqual([
      [10, 'keep'],
      [11, 'variation'],
    ]);
    expect([...initialOptions('DuplicateFiles', ep)]).toEqual([
      [100, 'keep'],
      [110, 'keep'],
      [111, 'keep'],
    ]);
  });

  it('plans deletions with their paths and only changed variation flags', () => {
    const ep = episode(1, [file(10, [[100, 'a.mkv']]), file(11, [[110, 'b.mkv']], true), file(12, [[120, 'c.mkv']])]);
    const plan = planEpisode(
      'MultipleReleases',
      ep,
      new Map([
        [10, 'delete'],
        [11, 'keep'],
        [12, 'variation'],
      ]),
    );
    expect(plan.changes).toEqual({
      deleteFiles: [10],
      deleteLocations: [],
      variations: [
        { fileId: 11, value: false },
        { fileId: 12, value: true },
      ],
    });
    expect(plan.removedPaths).toEqual(['/lib/a.mkv']);
    expect(plan.blocked).toBeNull();
  });

  it('refuses to delete every file of an episode or every copy of a file', () => {
    const ep = episode(1, [
      file(10, [
        [100, 'a.mkv'],
        [101, 'copy/a.mkv'],
      ]),
      file(11, [[110, 'b.mkv']]),
    ]);
    expect(
      planEpisode(
        'MultipleReleases',
        ep,
        new Map([
          [10, 'delete'],
          [11, 'delete'],
        ]),
      ).blocked,
    ).toMatch(/at least one/);
    expect(
      planEpisode(
        'DuplicateFiles',
        ep,
        new Map([
          [100, 'delete'],
          [101, 'delete'],
        ]),
      ).blocked,
    ).toMatch(/at least one/);
    const one = planEpisode('DuplicateFiles', ep, new Map([[101, 'delete']]));
    expect(one.changes.deleteLocations).toEqual([101]);
    expect(one.removedPaths).toEqual(['/lib/copy/a.mkv']);
  });

  it('quick-selects release groups but leaves each episode one file', () => {
    const episodes = [
      episode(1, [file(10, [[100, 'lantern-01.mkv']]), file(11, [[110, 'harbour-01.mkv']])]),
      episode(2, [file(20, [[200, 'lantern-02.mkv']]), file(21, [[210, 'harbour-02.mkv']])]),
    ];
    const groups = [
      {
        GroupName: 'Lantern',
        RangeByType: {},
        Episodes: [
          { EpisodeID: 1, FileID: 10 },
          { EpisodeID: 2, FileID: 20 },
          { EpisodeID: 3, FileID: 30 },
        ],
      },
      {
        GroupName: 'Harbour',
        RangeByType: {},
        Episodes: [
          { EpisodeID: 1, FileID: 11 },
          { EpisodeID: 2, FileID: 21 },
        ],
      },
    ] as QuickSelectGroup[];
    const lantern = planQuickSelect('MultipleReleases', groups, new Set([0]), episodes);
    // File 30 belongs to an episode without multiple releases: it is not touched.
    expect(lantern.changes.deleteFiles).toEqual([10, 20]);
    expect(lantern.removedPaths).toEqual(['/lib/lantern-01.mkv', '/lib/lantern-02.mkv']);
    const both = planQuickSelect('MultipleReleases', groups, new Set([0, 1]), episodes);
    expect(both.changes.deleteFiles).toEqual([]);
    expect(both.skipped).toBe(2);
    expect(both.blocked).toMatch(/Nothing to delete/);
  });

  it('quick-selects folders of copies but keeps one copy of each file', () => {
    const episodes = [
      episode(1, [
        file(10, [
          [100, 'Show/a.mkv'],
          [101, 'Backup/a.mkv'],
        ]),
      ]),
    ];
    const groups = [
      { FileLocation: 'Show', RangeByType: {}, Locations: [{ ID: 100, FileID: 10, ImportFolderID: 1, RelativePath: 'Show/a.mkv' }] },
      { FileLocation: 'Backup', RangeByType: {}, Locations: [{ ID: 101, FileID: 10, ImportFolderID: 1, RelativePath: 'Backup/a.mkv' }] },
    ] as QuickSelectGroup[];
    expect(planQuickSelect('DuplicateFiles', groups, new Set([1]), episodes).changes.deleteLocations).toEqual([101]);
    const all = planQuickSelect('DuplicateFiles', groups, new Set([0, 1]), episodes);
    expect(all.changes.deleteLocations).toEqual([101]);
    expect(all.skipped).toBe(1);
  });
});
