import type { RowOf } from './import-plan.js';
import { keepRows } from './import-report.js';
import { mapAnimeFromDocuments } from './map-anidb.js';
import type { MapContext } from './map-context.js';
import { anidbProse, flag, nullableText, shokoTime, text } from './shoko-values.js';

/** AnimeSeries.DisableAutoMatchFlags: the DataSourceType flag of TMDB. */
const TMDB_SOURCE_FLAG = 4;
/** CrossRef_CustomTag.CrossRefType: 1 = the tag is on an anime (CrossRefID is its AniDB id). */
const CUSTOM_TAG_ON_ANIME = 1;

/**
 * Groups (custom names, nesting, the default series), series (title overrides) and episodes (hidden, title overrides),
 * with Shoko's ids, which clients such as Shokofin and Shoko Relay keep in their own libraries.
 */
export function mapCollection(ctx: MapContext, animeDocs: Map<number, string>): void {
  const { shoko, plan, report, ids } = ctx;
  const seriesRows = shoko.all('AnimeSeries', [
    'AnimeSeriesID',
    'AnimeGroupID',
    'AniDB_ID',
    'DateTimeCreated',
    'DateTimeUpdated',
    'SeriesNameOverride',
    'DisableAutoMatchFlags',
  ]);
  const missingAnime = [...new Set(seriesRows.map((r) => Number(r.AniDB_ID)).filter((id) => !ids.anime.has(id)))];
  if (missingAnime.length) mapAnimeFromDocuments(ctx, animeDocs, missingAnime);

  const groupRows = shoko.all('AnimeGroup', [
    'AnimeGroupID',
    'AnimeGroupParentID',
    'GroupName',
    'Description',
    'IsManuallyNamed',
    'OverrideDescription',
    'DefaultAnimeSeriesID',
    'MainAniDBAnimeID',
    'DateTimeCreated',
    'DateTimeUpdated',
  ]);
  const groupIds = new Set(groupRows.map((g) => Number(g.AnimeGroupID)));
  const series = report.kind('Series', seriesRows.length);
  const keptSeries: typeof seriesRows = [];
  for (const row of seriesRows) {
    const id = Number(row.AnimeSeriesID);
    const animeId = Number(row.AniDB_ID);
    if (!ids.anime.has(animeId)) series.skipped('its AniDB anime is neither in the database nor in the XML cache', id);
    else if (ids.seriesByAnime.has(animeId)) series.skipped('another series has the same AniDB anime', id);
    else if (!groupIds.has(Number(row.AnimeGroupID))) series.skipped('its group does not exist', id);
    else {
      keptSeries.push(row);
      ids.series.set(id, animeId);
      ids.seriesByAnime.set(animeId, id);
      series.took();
    }
  }

  // A group is kept when a kept series is in it or below it; parents are written before their children.
  const parentOf = new Map(groupRows.map((g) => [Number(g.AnimeGroupID), Number(g.AnimeGroupParentID ?? 0) || null]));
  const groupById = new Map(groupRows.map((g) => [Number(g.AnimeGroupID), g]));
  const holding = new Set<number>();
  for (const row of keptSeries) {
    for (let g: number | null = Number(row.AnimeGroupID); g !== null && !holding.has(g); g = parentOf.get(g) ?? null) holding.add(g);
  }
  const groups = report.kind('Groups', groupRows.length);
  const seriesGroup = new Map(keptSeries.map((s) => [Number(s.AnimeSeriesID), Number(s.AnimeGroupID)]));
  const groupOut: Array<RowOf<'groups'>> = [];
  const placed = new Set<number>();
  const place = (row: (typeof groupRows)[number], trail: Set<number>): void => {
    const id = Number(row.AnimeGroupID);
    if (placed.has(id) || trail.has(id)) return;
    trail.add(id);
    const parentId = parentOf.get(id) ?? null;
    const parent = parentId !== null && holding.has(parentId) ? groupById.get(parentId) : undefined;
    if (parent) place(parent, trail);
    const preferred = Number(row.DefaultAnimeSeriesID ?? 0);
    const created = shokoTime(row.DateTimeCreated) ?? ctx.now;
    groupOut.push({
      id,
      parent_id: parent && placed.has(parentId!) ? parentId : null,
      name: text(row.GroupName),
      // Not overridden, Shoko's group description is its main anime's AniDB description as Shoko stored it.
      description: flag(row.OverrideDescription) ? text(row.Description) : anidbProse(row.Description),
      has_custom_name: flag(row.IsManuallyNamed),
      has_custom_description: flag(row.OverrideDescription),
      preferred_series_id: preferred && seriesGroup.get(preferred) === id ? preferred : null,
      main_anime_id: Number(row.MainAniDBAnimeID ?? 0) || null,
      created_at: created,
      updated_at: shokoTime(row.DateTimeUpdated) ?? created,
    });
    placed.add(id);
    ids.groups.add(id);
    groups.took();
  };
  for (const row of groupRows) {
    if (holding.has(Number(row.AnimeGroupID))) place(row, new Set());
    else groups.skipped('it holds no imported series', Number(row.AnimeGroupID));
  }
  plan.add('groups', groupOut);
  plan.add(
    'series',
    keptSeries.map((row) => {
      const created = shokoTime(row.DateTimeCreated) ?? ctx.now;
      return {
        id: Number(row.AnimeSeriesID),
        anime_id: Number(row.AniDB_ID),
        group_id: Number(row.AnimeGroupID),
        title_override: nullableText(row.SeriesNameOverride),
        created_at: created,
        updated_at: shokoTime(row.DateTimeUpdated) ?? created,
        disable_tmdb_auto_match: Number(row.DisableAutoMatchFlags ?? 0) & TMDB_SOURCE_FLAG ? 1 : 0,
      };
    }),
  );

  const episodeRows = shoko.all('AnimeEpisode', [
    'AnimeEpisodeID',
    'AnimeSeriesID',
    'AniDB_EpisodeID',
    'IsHidden',
    'EpisodeNameOverride',
    'DateTimeCreated',
    'DateTimeUpdated',
  ]);
  const episodes = report.kind('Episodes', episodeRows.length);
  const episodeOut: Array<RowOf<'episodes'>> = [];
  for (const row of episodeRows) {
    const id = Number(row.AnimeEpisodeID);
    const seriesId = Number(row.AnimeSeriesID);
    const anidbId = Number(row.AniDB_EpisodeID);
    if (!ids.series.has(seriesId)) episodes.skipped('its series was not imported', id);
    else if (!ids.anidbEpisodes.has(anidbId)) episodes.skipped('its AniDB episode is not in the database', id);
    else if (ids.episodesByAniDB.has(anidbId)) episodes.skipped('another episode has the same AniDB episode', id);
    else {
      const created = shokoTime(row.DateTimeCreated) ?? ctx.now;
      episodeOut.push({
        id,
        series_id: seriesId,
        anidb_episode_id: anidbId,
        is_hidden: flag(row.IsHidden),
        title_override: nullableText(row.EpisodeNameOverride),
        created_at: created,
        updated_at: shokoTime(row.DateTimeUpdated) ?? created,
      });
      ids.episodes.set(id, seriesId);
      ids.episodesByAniDB.set(anidbId, id);
      episodes.took();
    }
  }
  plan.add('episodes', episodeOut);
  mapCustomTags(ctx);
}

function mapCustomTags(ctx: MapContext): void {
  const { shoko, plan, report, ids } = ctx;
  const tagRows = shoko.all('CustomTag', ['CustomTagID', 'TagName', 'TagDescription']);
  const tags = report.kind('Custom tags', tagRows.length);
  const tagIds = new Set<number>();
  plan.add(
    'custom_tags',
    tagRows.flatMap((row) => {
      const name = text(row.TagName).trim();
      if (!name) return (tags.skipped('it has no name', Number(row.CustomTagID)), []);
      tagIds.add(Number(row.CustomTagID));
      tags.took();
      return [{ id: Number(row.CustomTagID), name, description: text(row.TagDescription) }];
    }),
  );
  const linkRows = shoko.all('CrossRef_CustomTag', ['CustomTagID', 'CrossRefID', 'CrossRefType']);
  const links = report.kind('Custom tags on series', linkRows.length);
  const seriesOf = (row: { CrossRefID?: unknown }) => ids.seriesByAnime.get(Number(row.CrossRefID));
  plan.add(
    'series_custom_tags',
    keepRows(links, linkRows, {
      key: (row) => `${seriesOf(row)}/${Number(row.CustomTagID)}`,
      refuse: (row) =>
        Number(row.CrossRefType) !== CUSTOM_TAG_ON_ANIME
          ? 'custom tags on groups are not kept here'
          : !tagIds.has(Number(row.CustomTagID))
            ? 'its tag was not imported'
            : seriesOf(row) === undefined
              ? 'no imported series has this anime'
              : undefined,
      example: (row) => `${Number(row.CustomTagID)}/${Number(row.CrossRefID)}`,
      map: (row) => ({ series_id: seriesOf(row)!, tag_id: Number(row.CustomTagID) }),
    }),
  );
}
