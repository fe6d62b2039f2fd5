import type { EventBus } from '../../events/bus.js';
import { FieldErrorCollector, notFound, validationError } from '../../http/problem.js';
import type { FileReads } from '../files/index.js';
import { fileEvent } from '../files/index.js';
import type { EpisodeTarget, ManualLinksStore, UserLinkRequest } from './manual-links.store.js';

/** AniDB's epno prefixes and the episode types they stand for. */
const EPNO_TYPES: Record<string, string> = { '': 'Episode', S: 'Special', C: 'Credits', T: 'Trailer', P: 'Parody', O: 'Other' };

/** `12` → Episode 12, `S2` → Special 2; null when the text is not an epno. */
export function parseEpno(text: string): { type: string; number: number } | null {
  const match = /^\s*([SCTPO]?)(\d+)\s*$/i.exec(text);
  if (!match) return null;
  return { type: EPNO_TYPES[match[1].toUpperCase()], number: Number(match[2]) };
}

/**
 * Links made by a user between file contents and episodes ("Manually Link File to Episode"). AniDB's own links are
 * never replaced: a file AniDB identified must be rescanned, not overridden.
 */
export class ManualLinks {
  constructor(
    private readonly deps: {
      store: ManualLinksStore;
      files: FileReads;
      bus: EventBus;
      /** Files a user just linked (rename/move on import follows). */
      onLinked?: (fileIds: number[]) => Promise<unknown>;
    },
  ) {}

  /** F33: one file to one or more Shoko episodes, each at 100 %. */
  async linkToEpisodes(fileId: number, episodeIds: number[]): Promise<void> {
    const errors = new FieldErrorCollector();
    const file = await this.hashedFile(fileId);
    await this.checkNoAniDBLinks([file], errors);
    const targets = await this.shokoEpisodes(episodeIds, (id) => errors.add('EpisodeIDs', `Unable to find shoko episode with id ${id}`));
    errors.throwIfAny();
    await this.replaceUserLinks([{ fileId, episodes: targets, percentage: 100 }]);
  }

  /** F38: several files to one Shoko episode, sharing it. */
  async linkFilesToEpisode(fileIds: number[], episodeId: number): Promise<void> {
    const errors = new FieldErrorCollector();
    const files = await this.filesOrErrors(fileIds, errors);
    await this.checkNoAniDBLinks(files, errors);
    const targets = await this.shokoEpisodes([episodeId], (id) => errors.add('EpisodeID', `Unable to find episode with id ${id}.`));
    errors.throwIfAny();
    const percentage = Math.round(100 / fileIds.length);
    await this.replaceUserLinks(files.map((file) => ({ fileId: file.id, episodes: targets, percentage })));
  }

  /** F34: one file to an episode range `RangeStart..RangeEnd` (same type) of a series. */
  async linkToRange(fileId: number, seriesId: number, rangeStart: string, rangeEnd: string): Promise<void> {
    const errors = new FieldErrorCollector();
    const file = await this.hashedFile(fileId);
    await this.checkNoAniDBLinks([file], errors);
    const episodes = await this.rangeOf(seriesId, rangeStart, rangeEnd, errors);
    errors.throwIfAny();
    await this.replaceUserLinks([{ fileId, episodes, percentage: 100 }]);
  }

  /** F37: several files from `RangeStart` on, file i to episode start+i, or all to the first with `SingleEpisode`. */
  async linkFilesToRange(fileIds: number[], seriesId: number, rangeStart: string, singleEpisode: boolean): Promise<void> {
    const errors = new FieldErrorCollector();
    const files = await this.filesOrErrors(fileIds, errors);
    await this.checkNoAniDBLinks(files, errors);
    const start = parseEpno(rangeStart);
    const end = start ? `${rangeStart.trim().replace(/\d+$/, '')}${start.number + (singleEpisode ? 0 : fileIds.length - 1)}` : rangeStart;
    const episodes = await this.rangeOf(seriesId, rangeStart, end, errors);
    errors.throwIfAny();
    const requests = singleEpisode
      ? files.map((file) => ({ fileId: file.id, episodes: episodes.slice(0, 1), percentage: Math.round(100 / files.length) }))
      : files.map((file, i) => ({ fileId: file.id, episodes: [episodes[i]], percentage: 100 }));
    await this.replaceUserLinks(requests);
  }

  /** F36: removes the user's links to the given AniDB episodes, or all of them; AniDB's links cannot be removed. */
  async unlink(fileId: number, anidbEpisodeIds: number[] | null): Promise<void> {
    const file = await this.hashedFile(fileId);
    const links = await this.deps.store.linksOfContent(file.ed2k, file.size);
    const selected = anidbEpisodeIds ? links.filter((link) => anidbEpisodeIds.includes(link.episode_id)) : links;
    const errors = new FieldErrorCollector();
    for (const link of selected.filter((l) => l.source === 'AniDB')) {
      errors.add(
        'CrossReferences',
        `Unable to remove AniDB cross-reference to anidb episode with id ${link.episode_id} for file with id ${fileId}.`,
      );
    }
    errors.throwIfAny();
    if (!selected.length) return;
    await this.deps.store.removeLinks(
      selected.map((l) => l.id),
      fileId,
    );
    await this.announce([fileId], 'FileNotMatched');
  }

  private async hashedFile(fileId: number) {
    const file = await this.deps.files.file(fileId);
    if (!file) throw notFound('No File entry for the given fileID');
    if (!file.ed2k) throw validationError('File', 'The file has not been hashed yet.');
    return { id: file.id, ed2k: file.ed2k, size: file.size };
  }

  private async filesOrErrors(fileIds: number[], errors: FieldErrorCollector) {
    if (!fileIds.length) throw validationError('FileIDs', '`FileIDs` must contain at least one element.');
    const found: Array<{ id: number; ed2k: string; size: number }> = [];
    for (const id of fileIds) {
      const file = await this.deps.files.file(id);
      if (!file) errors.add('FileIDs', `Unable to find a file with id ${id}.`);
      else if (!file.ed2k) errors.add('FileIDs', `The file with id ${id} has not been hashed yet.`);
      else found.push({ id: file.id, ed2k: file.ed2k, size: file.size });
    }
    return found;
  }

  private async checkNoAniDBLinks(files: Array<{ id: number; ed2k: string; size: number }>, errors: FieldErrorCollector): Promise<void> {
    for (const file of files) {
      const anidbLinks = await this.deps.store.anidbLinkedEpisodes(file.ed2k, file.size);
      for (const episodeId of anidbLinks) {
        errors.add(
          'CrossReferences',
          `Unable to remove AniDB cross-reference to anidb episode with id ${episodeId} for file with id ${file.id}.`,
        );
      }
    }
  }

  private async shokoEpisodes(ids: number[], onMissing: (id: number) => void): Promise<EpisodeTarget[]> {
    if (!ids.length) return [];
    const rows = await this.deps.store.shokoEpisodes(ids);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) {
        onMissing(id);
        return [];
      }
      return [{ anidbEpisodeId: row.anidbEpisodeId, animeId: row.animeId }];
    });
  }

  private async rangeOf(seriesId: number, rangeStart: string, rangeEnd: string, errors: FieldErrorCollector): Promise<EpisodeTarget[]> {
    const series = await this.deps.store.series(seriesId);
    if (!series) {
      errors.add('SeriesID', `Unable to find series with id ${seriesId}.`);
      return [];
    }
    const start = parseEpno(rangeStart);
    const end = parseEpno(rangeEnd);
    if (!start) errors.add('RangeStart', 'Unable to parse an int from `RangeStart`');
    if (!end) errors.add('RangeEnd', 'Unable to parse an int from `RangeEnd`');
    if (!start || !end) return [];
    if (start.type !== end.type) {
      errors.add('RangeEnd', 'Unable to use different episode types in the `RangeStart` and `RangeEnd`.');
      return [];
    }
    const episodes = await this.deps.store.anidbEpisodesOfType(series.anime_id, start.type);
    const count = episodes.length;
    if (start.number < 1) errors.add('RangeStart', '`RangeStart` cannot be lower than 1.');
    else if (start.number > count)
      errors.add('RangeStart', '`RangeStart` cannot be higher than the total number of episodes for the selected type.');
    if (end.number < start.number) errors.add('RangeEnd', '`RangeEnd` cannot be lower than `RangeStart`.');
    else if (end.number > count)
      errors.add('RangeEnd', '`RangeEnd` cannot be higher than the total number of episodes for the selected type.');
    return episodes
      .filter((e) => e.number >= start.number && e.number <= end.number)
      .map((e) => ({ anidbEpisodeId: e.id, animeId: series.anime_id }));
  }

  /** Replaces each file's user links with the new ones and marks it imported, all in one transaction. */
  private async replaceUserLinks(requests: UserLinkRequest[]): Promise<void> {
    await this.deps.store.replaceUserLinks(requests);
    const fileIds = requests.map((r) => r.fileId);
    await this.announce(fileIds, 'FileMatched');
    await this.deps.onLinked?.(fileIds);
  }

  private async announce(fileIds: number[], event: 'FileMatched' | 'FileNotMatched'): Promise<void> {
    for (const location of await this.deps.files.locationsOfFiles(fileIds)) {
      this.deps.bus.emit('shoko', { event, payload: fileEvent(location.file_id, location) });
    }
  }
}
