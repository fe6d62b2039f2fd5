import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ANIDB_RESOURCE_SITES, parseAnimeXml, type AniDBResource } from '../../providers/anidb/http/index.js';
import { decodeEntities as decodeAniDBText } from '../../providers/anidb/http/xml-nodes.js';
import { animeResourceLinks, toAnimeMetadata, animeRow, type AnimeMetadata } from '../metadata/index.js';
import type { RowOf } from './import-plan.js';
import { keepRows } from './import-report.js';
import { animeMissing, type MapContext } from './map-context.js';
import { mapCast } from './map-anidb-cast.js';
import { anidbProse, flag, nullableProse, nullableText, shokoDay, shokoTime, text, unixDay } from './shoko-values.js';

const ANIME_TYPES: Record<number, string> = { 0: 'Movie', 1: 'OVA', 2: 'TV', 3: 'TVSpecial', 4: 'Web', 5: 'Other', 6: 'MusicVideo' };
const EPISODE_TYPES: Record<number, string> = { 1: 'Episode', 2: 'Credits', 3: 'Special', 4: 'Trailer', 5: 'Parody', 6: 'Other' };

/** Shoko's AniDB_Anime columns for external sites, by AniDB resource type. */
const RESOURCE_COLUMNS: Array<[column: string, type: number]> = [
  ['ANNID', 1],
  ['Site_JP', 4],
  ['Site_EN', 5],
  ['Wikipedia_ID', 6],
  ['WikipediaJP_ID', 7],
  ['SyoboiID', 8],
  ['AllCinemaID', 9],
  ['AnisonID', 10],
  ['LainID', 11],
  ['VNDBID', 14],
  ['CrunchyrollID', 28],
  ['FunimationID', 34],
  ['BangumiID', 38],
  ['HiDiveID', 42],
];

/** An AniDB rating text ("8.45") or number as AniDB's ×100 integer. */
const rating100 = (value: unknown) => {
  const n = Number.parseFloat(text(value));
  return Number.isFinite(n) ? Math.round(n * 100) : 0;
};

/**
 * AniDB data: tags, anime with titles, episodes, relations, similar anime, characters and staff, from Shoko's tables;
 * an anime a series needs that only the XML cache holds is read from its `AnimeDoc_<aid>.xml`. The XML documents are
 * copied into our AniDB cache so that a later refresh counts their age from Shoko's download.
 */
export function mapAniDB(ctx: MapContext, animeDocs: Map<number, string>): void {
  const { shoko, plan, report, ids } = ctx;
  mapTags(ctx);

  const animeRows = shoko.all('AniDB_Anime', [
    'AnimeID',
    'EpisodeCount',
    'EpisodeCountSpecial',
    'AirDate',
    'EndDate',
    'URL',
    'Picname',
    'AnimeType',
    'MainTitle',
    'Description',
    'Rating',
    'VoteCount',
    'TempRating',
    'TempVoteCount',
    'DateTimeUpdated',
    'Restricted',
    ...RESOURCE_COLUMNS.map(([c]) => c),
  ]);
  const anime = report.kind('AniDB anime', animeRows.length);
  const animeOut: Array<RowOf<'anidb_anime'>> = keepRows(anime, animeRows, {
    key: (row) => Number(row.AnimeID),
    duplicate: 'duplicate AniDB anime row',
    kept: ids.anime,
    map: (row, id) => ({
      id,
      type: ANIME_TYPES[Number(row.AnimeType)] ?? 'Unknown',
      main_title: text(row.MainTitle),
      episode_count: Number(row.EpisodeCount ?? 0),
      special_count: Number(row.EpisodeCountSpecial ?? 0),
      air_date: shokoDay(row.AirDate),
      end_date: shokoDay(row.EndDate),
      restricted: flag(row.Restricted),
      description: anidbProse(row.Description),
      picture: nullableText(row.Picname),
      rating: Number(row.Rating ?? 0),
      rating_votes: Number(row.VoteCount ?? 0),
      temp_rating: Number(row.TempRating ?? 0),
      temp_rating_votes: Number(row.TempVoteCount ?? 0),
      resources: JSON.stringify(animeResourceLinks(resourcesOf(row))),
      fetched_at: shokoTime(row.DateTimeUpdated) ?? ctx.now,
      url: nullableText(row.URL),
    }),
  });
  plan.add('anidb_anime', animeOut);

  const titleRows = shoko.all('AniDB_Anime_Title', ['AnimeID', 'TitleType', 'Language', 'Title']);
  const titles = report.kind('AniDB anime titles', titleRows.length);
  const mainTitles = new Map<number, string>();
  plan.add(
    'anidb_anime_titles',
    titleRows.flatMap((row) => {
      const animeId = Number(row.AnimeID);
      const refusal = animeMissing(ids, row);
      if (refusal) return (titles.skipped(refusal, animeId), []);
      const value = text(row.Title);
      if (text(row.TitleType).toLowerCase() === 'main') mainTitles.set(animeId, value);
      titles.took();
      return [{ anime_id: animeId, type: text(row.TitleType).toLowerCase(), language: text(row.Language), value }];
    }),
  );

  mapAnimeTags(ctx);
  mapEpisodes(ctx);
  mapRelations(ctx, animeDocs, mainTitles);
  mapCast(ctx);
  copyAnimeDocuments(ctx, animeDocs);
  collectImages(ctx);
}

/** Shoko files AniDB pictures under `images/AniDB[_Char|_Creator]/<first two digits of the id>/<AniDB picture name>`. */
function collectImages(ctx: MapContext): void {
  const root = ctx.folder.imagesDir;
  if (!root) return;
  const candidates: Array<{ dir: string; type: 'Poster' | 'Character' | 'Staff'; id: number; picture: string | null | undefined }> = [
    ...ctx.plan.rows('anidb_anime').map((a) => ({ dir: 'AniDB', type: 'Poster' as const, id: a.id, picture: a.picture })),
    ...ctx.plan.rows('anidb_characters').map((c) => ({ dir: 'AniDB_Char', type: 'Character' as const, id: c.id, picture: c.picture })),
    ...ctx.plan.rows('anidb_creators').map((c) => ({ dir: 'AniDB_Creator', type: 'Staff' as const, id: c.id, picture: c.picture })),
  ];
  const wanted = candidates.filter((c) => c.picture);
  const images = ctx.report.kind('Cached AniDB pictures', wanted.length);
  for (const c of wanted) {
    const from = path.join(root, c.dir, String(c.id).slice(0, 2), path.basename(c.picture!));
    if (existsSync(from)) {
      ctx.plan.images.push({ from, source: 'AniDB', type: c.type, id: c.id });
      images.took();
    } else images.skipped('not in the image cache (downloaded again when first shown)', c.id);
  }
}

function resourcesOf(row: Record<string, unknown>): AniDBResource[] {
  return RESOURCE_COLUMNS.flatMap(([column, type]): AniDBResource[] => {
    const value = nullableText(row[column]);
    if (!value) return [];
    const site = ANIDB_RESOURCE_SITES[type];
    // The official sites are stored as URLs (several joined with '|'); the others as the site's identifier.
    const entities = value
      .split('|')
      .map((v) => v.trim())
      .filter(Boolean)
      .map((v) => (type === 4 || type === 5 ? { identifiers: [v], url: v } : { identifiers: [v], url: site?.link ? site.link(v) : null }));
    return [{ type, site: site?.site ?? null, entities }];
  });
}

function mapTags(ctx: MapContext): void {
  const rows = ctx.shoko.all('AniDB_Tag', [
    'TagID',
    'GlobalSpoiler',
    'TagName',
    'TagDescription',
    'Verified',
    'ParentTagID',
    'LastUpdated',
  ]);
  const tags = ctx.report.kind('AniDB tags', rows.length);
  const known = new Set(rows.map((r) => Number(r.TagID)));
  const out: Array<RowOf<'anidb_tags'>> = keepRows(tags, rows, {
    key: (row) => Number(row.TagID),
    duplicate: 'duplicate tag row',
    map: (row, id) => {
      const parent = Number(row.ParentTagID ?? 0);
      ctx.ids.tagIdsByName.set(text(row.TagName).toLowerCase(), id);
      return {
        id,
        parent_id: parent && known.has(parent) ? parent : null,
        name: text(row.TagName),
        description: nullableProse(row.TagDescription),
        is_spoiler: flag(row.GlobalSpoiler),
        is_verified: flag(row.Verified),
        updated_at: shokoTime(row.LastUpdated) ?? ctx.now,
      };
    },
  });
  ctx.plan.add('anidb_tags', out);
}

function mapAnimeTags(ctx: MapContext): void {
  const { plan, report, ids } = ctx;
  const links = ctx.shoko.all('AniDB_Anime_Tag', ['AnimeID', 'TagID', 'Weight', 'LocalSpoiler']);
  const tagLinks = report.kind('AniDB anime tags', links.length);
  const tagIds = new Set(ctx.plan.rows('anidb_tags').map((t) => t.id));
  plan.add(
    'anidb_anime_tags',
    keepRows(tagLinks, links, {
      key: (row) => `${Number(row.AnimeID)}/${Number(row.TagID)}`,
      refuse: (row) => animeMissing(ids, row) ?? (tagIds.has(Number(row.TagID)) ? undefined : 'its tag is not in the database'),
      duplicate: 'duplicate tag link',
      map: (row) => ({
        anime_id: Number(row.AnimeID),
        tag_id: Number(row.TagID),
        weight: Number(row.Weight ?? 0),
        is_local_spoiler: flag(row.LocalSpoiler),
      }),
    }),
  );
}

function mapEpisodes(ctx: MapContext): void {
  const { shoko, plan, report, ids } = ctx;
  const titleRows = shoko.all('AniDB_Episode_Title', ['AniDB_EpisodeID', 'Language', 'Title']);
  const titlesByEpisode = new Map<number, Array<{ language: string; value: string }>>();
  for (const row of titleRows) {
    const list = titlesByEpisode.get(Number(row.AniDB_EpisodeID)) ?? [];
    list.push({ language: text(row.Language), value: text(row.Title) });
    titlesByEpisode.set(Number(row.AniDB_EpisodeID), list);
  }
  const rows = shoko.all('AniDB_Episode', [
    'EpisodeID',
    'AnimeID',
    'LengthSeconds',
    'Rating',
    'Votes',
    'EpisodeNumber',
    'EpisodeType',
    'AirDate',
    'Description',
  ]);
  const episodes = report.kind('AniDB episodes', rows.length);
  const out: Array<RowOf<'anidb_episodes'>> = [];
  for (const row of rows) {
    const id = Number(row.EpisodeID);
    const animeId = Number(row.AnimeID);
    if (!ids.anime.has(animeId)) {
      episodes.skipped('its anime is not in the database', id);
      continue;
    }
    if (ids.anidbEpisodes.has(id)) {
      episodes.skipped('duplicate AniDB episode row', id);
      continue;
    }
    ids.anidbEpisodes.set(id, animeId);
    out.push({
      id,
      anime_id: animeId,
      type: EPISODE_TYPES[Number(row.EpisodeType)] ?? 'Other',
      number: Number(row.EpisodeNumber ?? 0),
      length_seconds: Number(row.LengthSeconds ?? 0),
      air_date: unixDay(row.AirDate),
      rating: rating100(row.Rating),
      votes: Number.parseInt(text(row.Votes), 10) || 0,
      description: anidbProse(row.Description),
      titles: JSON.stringify(titlesByEpisode.get(id) ?? []),
    });
    episodes.took();
  }
  const episodeTitles = report.kind('AniDB episode titles', titleRows.length);
  for (const row of titleRows) {
    if (ids.anidbEpisodes.has(Number(row.AniDB_EpisodeID))) episodeTitles.took();
    else episodeTitles.skipped('its episode is not in the database', Number(row.AniDB_EpisodeID));
  }
  plan.add('anidb_episodes', out);
}

/**
 * Relations and similar anime. Shoko keeps no title with them; the title comes from the anime's cached XML where there
 * is one (`<relatedanime>`/`<similaranime>` read by a light scan, not a full parse), else from the related anime's own
 * main title when Shoko has it.
 */
function mapRelations(ctx: MapContext, animeDocs: Map<number, string>, mainTitles: Map<number, string>): void {
  const { shoko, plan, report, ids } = ctx;
  const listedTitles = new Map<number, Map<number, string>>();
  const titleFromXml = (animeId: number, otherId: number) => {
    if (!listedTitles.has(animeId)) {
      const file = animeDocs.get(animeId);
      listedTitles.set(animeId, file ? listedAnimeTitles(readText(file)) : new Map());
    }
    return listedTitles.get(animeId)!.get(otherId) ?? null;
  };
  const relationRows = shoko.all('AniDB_Anime_Relation', ['AnimeID', 'RelatedAnimeID', 'RelationType']);
  const relations = report.kind('AniDB relations', relationRows.length);
  plan.add(
    'anidb_relations',
    keepRows(relations, relationRows, {
      key: (row) => `${Number(row.AnimeID)}/${Number(row.RelatedAnimeID)}`,
      refuse: (row) => animeMissing(ids, row) ?? (Number(row.AnimeID) === Number(row.RelatedAnimeID) ? 'duplicate relation' : undefined),
      duplicate: 'duplicate relation',
      map: (row) => {
        const animeId = Number(row.AnimeID);
        const related = Number(row.RelatedAnimeID);
        return {
          anime_id: animeId,
          related_anime_id: related,
          relation_type: text(row.RelationType),
          related_title: titleFromXml(animeId, related) ?? mainTitles.get(related) ?? null,
        };
      },
    }),
  );
  const similarRows = shoko.all('AniDB_Anime_Similar', ['AnimeID', 'SimilarAnimeID', 'Approval', 'Total']);
  const similar = report.kind('AniDB similar anime', similarRows.length);
  plan.add(
    'anidb_similar',
    keepRows(similar, similarRows, {
      key: (row) => `${Number(row.AnimeID)}/${Number(row.SimilarAnimeID)}`,
      refuse: (row) =>
        animeMissing(ids, row) ?? (Number(row.AnimeID) === Number(row.SimilarAnimeID) ? 'duplicate similar anime' : undefined),
      duplicate: 'duplicate similar anime',
      map: (row) => {
        const animeId = Number(row.AnimeID);
        const other = Number(row.SimilarAnimeID);
        return {
          anime_id: animeId,
          similar_anime_id: other,
          approval: Number(row.Approval ?? 0),
          total: Number(row.Total ?? 0),
          title: titleFromXml(animeId, other) ?? mainTitles.get(other) ?? '',
        };
      },
    }),
  );
}

/** `<anime id="N" …>Title</anime>` entries of an AniDB XML document's related and similar lists. */
export function listedAnimeTitles(xml: string): Map<number, string> {
  const titles = new Map<number, string>();
  for (const section of xml.matchAll(/<(relatedanime|similaranime)>([\s\S]*?)<\/\1>/g)) {
    for (const entry of section[2].matchAll(/<anime\b[^>]*\bid="(\d+)"[^>]*>([\s\S]*?)<\/anime>/g))
      titles.set(Number(entry[1]), decodeAniDBText(entry[2]).trim());
  }
  return titles;
}

const readText = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** Copies each cached `AnimeDoc_<aid>.xml` into our AniDB cache (`<home>/anidb`), keeping its age. */
function copyAnimeDocuments(ctx: MapContext, animeDocs: Map<number, string>): void {
  const docs = ctx.report.kind('AniDB XML cache files', animeDocs.size);
  for (const [animeId, file] of animeDocs) {
    ctx.plan.copies.push({ from: file, to: path.join('anidb', `AnimeDoc_${animeId}.xml`) });
    docs.took();
  }
}

/**
 * The anime Shoko's tables lack but a series needs, read from the cached XML (as our own download would store it).
 * Answers the ids it added.
 */
export function mapAnimeFromDocuments(ctx: MapContext, animeDocs: Map<number, string>, wanted: number[]): number[] {
  const added: number[] = [];
  const kind = ctx.report.kind('AniDB anime from the XML cache only', wanted.length);
  for (const animeId of wanted) {
    const file = animeDocs.get(animeId);
    if (!file) {
      kind.skipped('no AniDB data for it in the database or the XML cache', animeId);
      continue;
    }
    let meta: AnimeMetadata;
    try {
      meta = toAnimeMetadata(parseAnimeXml(readFileSync(file, 'utf8')), { characters: false, creators: false });
    } catch (error) {
      kind.skipped(`its cached XML cannot be read (${(error as Error).message})`, animeId);
      continue;
    }
    addMetadataRows(ctx, meta);
    added.push(animeId);
    kind.took();
  }
  return added;
}

function addMetadataRows(ctx: MapContext, meta: AnimeMetadata): void {
  const { plan, ids } = ctx;
  ids.anime.add(meta.id);
  plan.add('anidb_anime', [{ id: meta.id, ...animeRow(meta, ctx.now) }]);
  plan.add(
    'anidb_anime_titles',
    meta.titles.map((t) => ({ anime_id: meta.id, ...t })),
  );
  const knownTags = new Set(plan.rows('anidb_tags').map((t) => t.id));
  plan.add(
    'anidb_tags',
    meta.tags
      .filter((t) => !knownTags.has(t.id))
      .map((t) => ({
        id: t.id,
        parent_id: null,
        name: t.name,
        description: t.description,
        is_spoiler: flag(t.isSpoiler),
        is_verified: flag(t.isVerified),
        updated_at: ctx.now,
      })),
  );
  plan.add(
    'anidb_anime_tags',
    [...new Map(meta.tags.map((t) => [t.id, t])).values()].map((t) => ({
      anime_id: meta.id,
      tag_id: t.id,
      weight: t.weight,
      is_local_spoiler: flag(t.isLocalSpoiler),
    })),
  );
  const episodes = meta.episodes.filter((e) => !ids.anidbEpisodes.has(e.id));
  for (const e of episodes) ids.anidbEpisodes.set(e.id, meta.id);
  plan.add(
    'anidb_episodes',
    episodes.map((e) => ({
      id: e.id,
      anime_id: meta.id,
      type: e.type,
      number: e.number,
      length_seconds: e.lengthSeconds,
      air_date: e.airDate,
      rating: e.rating,
      votes: e.votes,
      description: e.description,
      titles: JSON.stringify(e.titles),
    })),
  );
  plan.add(
    'anidb_relations',
    [...new Map(meta.relations.filter((r) => r.animeId !== meta.id).map((r) => [r.animeId, r])).values()].map((r) => ({
      anime_id: meta.id,
      related_anime_id: r.animeId,
      relation_type: r.type,
      related_title: r.title ?? null,
    })),
  );
}
