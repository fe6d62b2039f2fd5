import path from 'node:path';
import { inventedAnimeXml, inventedEpisodeId } from '../anidb-http/index.js';
import type { DemoLibrary } from './library.js';
import { ed2kOfFile, ffmpegAvailable, writeDemoMedia, type DemoMediaKind } from './demo-media.js';

/** The invented series whose three episodes are the playable clips (issue 43). */
export const PLAYABLE_ANIME = { id: 9501, title: 'Yuugure Densha', englishTitle: 'The Dusk Train' };
const FOLDER = 'Yuugure Densha';
const EPISODES: Record<DemoMediaKind, string> = { ass: '1', hevc: '2', srt: '3' };

/**
 * Writes the playable episodes into the demo library and teaches the AniDB fakes about them. ffmpeg's output differs
 * between versions, so the files are hashed as written rather than known in advance. Without ffmpeg nothing changes.
 */
export async function addPlayableEpisodes(library: string, demo: DemoLibrary): Promise<boolean> {
  if (!ffmpegAvailable()) return false;
  const names = Object.fromEntries(
    Object.entries(EPISODES).map(([kind, epno]) => [kind, `[Lantern] ${PLAYABLE_ANIME.title} - 0${epno}`]),
  ) as Record<DemoMediaKind, string>;
  const media = await writeDemoMedia(path.join(library, FOLDER), { names });
  for (const [index, clip] of media.entries()) {
    const { ed2k, size } = await ed2kOfFile(clip.path);
    demo.files.push({
      size,
      ed2k,
      fileId: 85_000 + index,
      animeId: PLAYABLE_ANIME.id,
      episodeId: inventedEpisodeId(PLAYABLE_ANIME.id, EPISODES[clip.kind]),
      groupId: 7001,
      fileName: path.basename(clip.path),
    });
  }
  demo.anime[PLAYABLE_ANIME.id] = inventedAnimeXml({
    id: PLAYABLE_ANIME.id,
    title: PLAYABLE_ANIME.title,
    englishTitle: PLAYABLE_ANIME.englishTitle,
    type: 'TV Series',
    regularEpisodes: 3,
    startDate: '2024-04-02',
    relatedAnime: [],
    similarAnime: [],
  });
  demo.titles.push({
    id: PLAYABLE_ANIME.id,
    titles: [
      { type: 'main', language: 'x-jat', value: PLAYABLE_ANIME.title },
      { type: 'official', language: 'en', value: PLAYABLE_ANIME.englishTitle },
    ],
  });
  return true;
}
