import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { insertSeries, moveSeriesToGroups, placeFiles, seriesGroups, type SeriesSpec } from './synthetic.store.js';

/** A small deterministic PRNG so generated collections are the same on every run. */
export function prng(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'ze',
  'no',
  'to',
  'mi',
  'ra',
  'shi',
  'yu',
  'ki',
  'ha',
  'na',
  'ta',
  'so',
  'ri',
  'ko',
  'me',
  'hoshi',
  'sora',
  'umi',
  'tsuki',
];
const WORDS = [
  'Academy',
  'Chronicle',
  'Journey',
  'Garden',
  'Signal',
  'Horizon',
  'Tale',
  'Record',
  'Festival',
  'Frontier',
  'Melody',
  'Lantern',
];
const TAGS = [
  'action',
  'comedy',
  'drama',
  'fantasy',
  'romance',
  'science fiction',
  'slice of life',
  'mystery',
  'sports',
  'music',
  'school',
  'mecha',
  'space',
  'magic',
  'historical',
  'horror',
  'idol',
  'cooking',
  'detective',
  'adventure',
];
const TYPES = ['TV Series', 'TV Series', 'TV Series', 'Movie', 'OVA', 'Web', 'TV Special'];
/** Episode counts of the long-running series (`longRunning`), one of them per LONG_RUNNING_EVERY series, in turn. */
const LONG_RUNNING_EPISODES = [1500, 1000, 700, 400];
const LONG_RUNNING_EVERY = 1250;
const LAST_YEAR = 2025;

/**
 * Which series of `series` run long, and how long: one in LONG_RUNNING_EVERY (at least one), spread evenly over the
 * collection, taking LONG_RUNNING_EPISODES in turn (so the first one always has 1,500 episodes).
 */
export function longRunningSeries(series: number): Map<number, number> {
  const count = Math.max(1, Math.floor(series / LONG_RUNNING_EVERY));
  return new Map(
    Array.from({ length: count }, (_, k) => [
      Math.floor(((k + 0.5) * series) / count),
      LONG_RUNNING_EPISODES[k % LONG_RUNNING_EPISODES.length],
    ]),
  );
}

/**
 * A realistic synthetic collection: `series` series in groups (about one in six groups holds a sequel), with tags,
 * titles in three languages, episodes spread over 1990–2025 and `files` local files spread over the episodes. With
 * `placeFiles` (the generator tool): 1% more files that match nothing (unrecognized), and every file located in an import
 * folder, every 40th twice (duplicates), for the file lists and release management. With `longRunning` (the generator
 * tool): a few TV series of 400–1,500 episodes among them (longRunningSeries), the files still spread evenly, so the
 * total stays about `files`.
 */
export async function generateCollection(
  db: Kysely<Database>,
  options: { series: number; files: number; seed?: number; userIds?: number[]; placeFiles?: boolean; longRunning?: boolean },
  progress?: (done: number) => void,
) {
  const random = prng(options.seed ?? 42);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  // Episode counts first, so files can be spread evenly over all episodes.
  const plans = Array.from({ length: options.series }, () => {
    const type = pick(TYPES);
    const count = type === 'Movie' ? 1 : type === 'TV Series' ? 12 + Math.floor(random() * 40) : 1 + Math.floor(random() * 6);
    return { type, count, specials: Math.floor(random() * 3) };
  });
  // Made long after the draws above, so the rest of the collection is the one made without them.
  const longRunning = options.longRunning ? longRunningSeries(options.series) : new Map<number, number>();
  for (const [i, count] of longRunning) plans[i] = { ...plans[i], type: 'TV Series', count };
  const share = options.files / plans.reduce((sum, p) => sum + p.count + p.specials, 0);
  const base = 100_000;
  let episodeId = 1_000_000;
  let pending: SeriesSpec[] = [];
  for (let i = 0; i < options.series; i++) {
    const name = `${pick(SYLLABLES)}${pick(SYLLABLES)} ${pick(SYLLABLES)}${pick(SYLLABLES)}`.replace(/^./, (c) => c.toUpperCase());
    const title = `${name} ${pick(WORDS)}${random() < 0.3 ? ` ${i}` : ''}`;
    const drawnYear = 1990 + Math.floor(random() * 36);
    // A long weekly run starts early enough to have ended by LAST_YEAR.
    const year = longRunning.has(i) ? Math.min(drawnYear, LAST_YEAR - Math.ceil((plans[i].count * 7) / 365)) : drawnYear;
    const month = 1 + Math.floor(random() * 12);
    const airDate = `${year}-${String(month).padStart(2, '0')}-0${1 + Math.floor(random() * 9)}`;
    const { type, count, specials } = plans[i];
    // Files per episode average out to the requested total; more files than episodes become extra releases.
    const episodes = Array.from({ length: count + specials }, (_, n) => {
      const file = Math.floor(share) + (random() < share - Math.floor(share) ? 1 : 0);
      return {
        id: episodeId++,
        type: n < count ? 'Episode' : 'Special',
        number: n < count ? n + 1 : n - count + 1,
        file,
        watchedBy: file && options.userIds?.length && random() < 0.4 ? options.userIds : [],
      };
    });
    const tags = Array.from(new Set(Array.from({ length: 2 + Math.floor(random() * 5) }, () => Math.floor(random() * TAGS.length)))).map(
      (t) => ({ id: 1000 + t, name: TAGS[t], weight: 100 + Math.floor(random() * 500) }),
    );
    const end = new Date(`${airDate}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 7 * (count - 1));
    pending.push({
      animeId: base + i,
      title,
      titles: [
        { type: 'main', language: 'x-jat', value: title },
        { type: 'official', language: 'en', value: `${title} (English)` },
        { type: 'synonym', language: 'ja', value: `${name}・${i}` },
      ],
      type,
      airDate,
      endDate: end.toISOString().slice(0, 10),
      rating: 300 + Math.floor(random() * 650),
      tags,
      episodes,
      fileSource: pick(['www', 'Blu-ray', 'DVD', 'TV']),
    });
    if (pending.length >= 250 || i === options.series - 1) {
      await insertSeries(db, pending);
      pending = [];
      progress?.(i + 1);
    }
  }
  // About one series in six is a sequel: it joins the group of the series before it; emptied groups are removed.
  const rows = await seriesGroups(db);
  const moves: Array<{ id: number; to: number }> = [];
  let previous = rows[0]?.group_id;
  for (const row of rows.slice(1)) {
    if (random() < 0.17) moves.push({ id: row.id, to: previous });
    else previous = row.group_id;
  }
  await moveSeriesToGroups(db, moves);
  if (options.placeFiles) await placeFiles(db, { unrecognized: Math.round(options.files / 100), duplicateEvery: 40 });
}
