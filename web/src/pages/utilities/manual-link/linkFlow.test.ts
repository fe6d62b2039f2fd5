import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as utilities from '@/api/utilities';
import { downloadAnime, LINK_TEXTS, runLinkFlow, type LinkNotice } from './linkFlow';
import type { LinkEntry } from './linking';

vi.mock('@/api/utilities', () => ({
  refreshAnime: vi.fn(),
  getAnidbAnime: vi.fn(),
  getShokoEpisodes: vi.fn(),
  deleteSeries: vi.fn(),
  linkFileToEpisodes: vi.fn(),
  linkFilesToEpisode: vi.fn(),
}));
const api = vi.mocked(utilities);

const inCollection = { ID: 9301, ShokoID: 5, Type: 'TV', Title: 'Sora', EpisodeCount: 6 };
const notInCollection = { ...inCollection, ShokoID: null };
// AniDB episode 100 + n is Shoko episode n.
const shokoEpisodes = { Total: 3, List: [1, 2, 3].map((n) => ({ IDs: { ID: n, AniDB: 100 + n } })) } as unknown as Awaited<
  ReturnType<typeof utilities.getShokoEpisodes>
>;
const entry = (key: number, fileId: number, episodeId: number | null): LinkEntry => ({
  key,
  fileId,
  path: `dir/file${fileId}.mkv`,
  episodeId,
});

async function run(anime: typeof inCollection | typeof notInCollection, entries: LinkEntry[]) {
  const notices: LinkNotice[] = [];
  const result = await runLinkFlow(anime, entries, (notice) => notices.push(notice));
  return { ...result, notices };
}

describe('runLinkFlow', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    api.getShokoEpisodes.mockResolvedValue(shokoEpisodes);
    api.linkFileToEpisodes.mockResolvedValue(undefined);
    api.linkFilesToEpisode.mockResolvedValue(undefined);
    api.deleteSeries.mockResolvedValue(undefined);
  });

  it('links 1:1, 1:N and N:1 with Shoko episode ids and warns about skipped files', async () => {
    const result = await run(inCollection, [entry(1, 10, 101), entry(2, 11, 102), entry(3, 11, 103), entry(4, 12, null)]);
    expect(api.linkFileToEpisodes.mock.calls).toEqual([
      [10, [1]],
      [11, [2, 3]],
    ]);
    expect(api.refreshAnime).not.toHaveBeenCalled();
    expect(result.linked).toBe(2);
    expect(result.notices).toEqual([
      { level: 'warning', title: LINK_TEXTS.skipped, text: 'dir/file12.mkv' },
      { level: 'success', title: 'Linked 2 files!' },
    ]);
    await run(inCollection, [entry(1, 20, 101), entry(2, 21, 101)]);
    expect(api.linkFilesToEpisode).toHaveBeenCalledWith([20, 21], 1);
  });

  it('creates the series entry first when the anime has none', async () => {
    api.refreshAnime.mockResolvedValue(true);
    api.getAnidbAnime.mockResolvedValue({ ...inCollection, ShokoID: 8 });
    const result = await run(notInCollection, [entry(1, 10, 101)]);
    expect(api.refreshAnime).toHaveBeenCalledWith(9301, { createSeriesEntry: true });
    expect(api.getShokoEpisodes).toHaveBeenCalledWith(8);
    expect(result.linked).toBe(1);
  });

  it('aborts on many-to-many and removes the series it created', async () => {
    api.refreshAnime.mockResolvedValue(true);
    api.getAnidbAnime.mockResolvedValue({ ...inCollection, ShokoID: 8 });
    const result = await run(notInCollection, [entry(1, 10, 101), entry(2, 10, 102), entry(3, 11, 101)]);
    expect(result).toEqual({ linked: 0, notices: [{ level: 'error', title: LINK_TEXTS.aborted, text: LINK_TEXTS.manyToMany }] });
    expect(api.deleteSeries).toHaveBeenCalledWith(8);
    expect(api.linkFileToEpisodes).not.toHaveBeenCalled();
  });

  it('aborts when the episodes cannot be read, keeping a series that existed before', async () => {
    api.getShokoEpisodes.mockRejectedValue(new Error('boom'));
    const result = await run(inCollection, [entry(1, 10, 101)]);
    expect(result.notices).toEqual([{ level: 'error', title: LINK_TEXTS.aborted, text: LINK_TEXTS.noEpisodes }]);
    expect(api.deleteSeries).not.toHaveBeenCalled();
  });

  it('reports a failed series creation and failed links per shape', async () => {
    api.refreshAnime.mockResolvedValue(false);
    expect((await run(notInCollection, [entry(1, 10, 101)])).notices).toEqual([{ level: 'error', title: LINK_TEXTS.noSeriesEntry }]);
    api.refreshAnime.mockResolvedValue(true);
    api.getAnidbAnime.mockResolvedValue(notInCollection);
    expect((await run(notInCollection, [entry(1, 10, 101)])).notices).toEqual([{ level: 'error', title: LINK_TEXTS.noShokoSeries }]);

    api.linkFileToEpisodes.mockRejectedValue(new Error('no'));
    api.linkFilesToEpisode.mockRejectedValue(new Error('no'));
    const result = await run(inCollection, [entry(1, 10, 101), entry(2, 11, 102), entry(3, 12, 102)]);
    expect(result.linked).toBe(0);
    expect(result.notices).toEqual([
      { level: 'error', title: 'Failed 1:1 linking for 1 file!' },
      { level: 'error', title: 'Failed N:1 linking for 2 files!' },
    ]);
  });
});

describe('downloadAnime', () => {
  beforeEach(() => vi.resetAllMocks());

  it('downloads an anime only the titles dump knows, and says so when that fails', async () => {
    expect(await downloadAnime(inCollection)).toBe(inCollection);
    api.refreshAnime.mockResolvedValue(true);
    api.getAnidbAnime.mockResolvedValue({ ...notInCollection, Type: 'TV' });
    expect(await downloadAnime({ ...notInCollection, Type: 'Unknown' })).toMatchObject({ Type: 'TV' });
    expect(api.refreshAnime).toHaveBeenCalledWith(9301, { force: true });
    api.refreshAnime.mockResolvedValue(false);
    await expect(downloadAnime({ ...notInCollection, Type: 'Unknown' })).rejects.toThrow(LINK_TEXTS.noSeriesData);
  });
});
