/**
 * DESIGN: the tags domain owns every tag the API shows: AniDB tags (read-only, from the anime data) and the user's
 * custom tags (CRUD and their series links). Routes: tags.routes.ts (Series/{id}/Tags*, Tag/User*) and
 * anidb-tags.routes.ts (Tag/AniDB); queries live in tags.store.ts. tag-filter.ts holds the TagFilter bit rules that
 * the collection filters and the dashboard also use. Series access (404/403) comes from the series domain's
 * SeriesAccess; the series domain asks this one for a series' source material.
 */
import type { Tag } from '@shoko-ts/contract';
import { applyPatch } from '../../http/json-patch.js';
import { textError, validationError } from '../../http/problem.js';
import type { Viewer } from '../../http/viewer.js';
import { keepCategory, keepUserTags, tagCategory, TagFilterBits } from './tag-filter.js';
import type { TagsStore } from './tags.store.js';

export const USER_TAG_NOT_FOUND = 'No User Tag entry for the given tagID';
export const ANIDB_TAG_NOT_FOUND = 'No AniDB Tag entry for the given tagID';
export const ANIDB_TAG_FORBIDDEN = 'Accessing Tag is not allowed for the current user';

interface AnidbTagRow {
  id: number;
  parent_id: number | null;
  name: string;
  description: string | null;
  is_spoiler: number;
  is_verified: number;
  updated_at: string;
}

/** An AniDB tag as Tag/AniDB lists it (no weight: that belongs to a series' use of the tag). */
function anidbTagModel(r: AnidbTagRow, o: { excludeDescriptions: boolean; size?: number }): Tag {
  const tag: Tag = { ID: r.id, ParentID: r.parent_id, Name: r.name, IsSpoiler: !!r.is_spoiler, Source: 'AniDB' };
  if (!o.excludeDescriptions && r.description !== null) tag.Description = r.description;
  tag.IsVerified = !!r.is_verified;
  if (o.size !== undefined) tag.Size = o.size;
  tag.LastUpdated = new Date(r.updated_at).toISOString();
  return tag;
}

export interface SeriesTagOptions {
  filter: number;
  excludeDescriptions: boolean;
  orderByName: boolean;
  onlyVerified: boolean;
  includeCount: boolean;
}

/** The console sends `name`/`description`; keys are matched case-insensitively. */
function field(body: Record<string, unknown> | null | undefined, name: string): unknown {
  if (!body) return undefined;
  const key = Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : body[key];
}
function optionalText(body: Record<string, unknown> | null | undefined, name: string): string | null {
  const value = field(body, name);
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw validationError(name, `${name} must be a string.`);
  return value;
}

/** The series' 404/403 gate (the series domain's SeriesAccess, given at wiring: series depend on tags, not back). */
export interface SeriesGate {
  viewer(userId: number | null): Promise<Viewer>;
  allowedSeries(viewer: Viewer, seriesId: number): Promise<{ id: number; anime_id: number }>;
}

export class TagsService {
  constructor(private readonly deps: { store: TagsStore; access: SeriesGate }) {}

  private async allowedSeries(userId: number | null, seriesId: number) {
    return this.deps.access.allowedSeries(await this.deps.access.viewer(userId), seriesId);
  }

  /** §5.6: the series' user tags (when the filter keeps them) then its AniDB tags by weight (or name). */
  async seriesTags(userId: number | null, seriesId: number, o: SeriesTagOptions): Promise<Tag[]> {
    const series = await this.allowedSeries(userId, seriesId);
    const { store } = this.deps;
    const user = keepUserTags(o.filter) ? await store.userTagModels(await store.seriesUserTags(series.id), o) : [];
    const anidb = await store.seriesAnidbTags(series.anime_id, o);
    anidb.sort((a, b) => (o.orderByName ? 0 : (b.Weight ?? 0) - (a.Weight ?? 0)) || a.Name.localeCompare(b.Name));
    return [...user, ...anidb];
  }

  /** Series/{id}/Tags/User: only the user tags, by name. */
  seriesUserTags(userId: number | null, seriesId: number, o: { excludeDescriptions: boolean; includeCount: boolean }): Promise<Tag[]> {
    return this.seriesTags(userId, seriesId, {
      ...o,
      filter: TagFilterBits.User + TagFilterBits.Invert,
      orderByName: true,
      onlyVerified: true,
    });
  }

  /** Adds user tags to the series; how many were new. */
  async addToSeries(userId: number | null, seriesId: number, tagIds: number[]): Promise<number> {
    const series = await this.allowedSeries(userId, seriesId);
    return this.deps.store.addToSeries(series.id, tagIds);
  }

  async removeFromSeries(userId: number | null, seriesId: number, tagIds: number[]): Promise<number> {
    const series = await this.allowedSeries(userId, seriesId);
    return this.deps.store.removeFromSeries(series.id, tagIds);
  }

  /** SourceMaterial: the heaviest AniDB tag below a source-category root ("manga", "light novel", …). */
  async sourceMaterial(animeId: number): Promise<string> {
    const anidbTags = await this.deps.store.seriesAnidbTags(animeId, {
      filter: 0,
      excludeDescriptions: true,
      onlyVerified: false,
      includeCount: false,
    });
    const ancestry = await this.deps.store.ancestry(anidbTags.map((t) => t.ID));
    const source = anidbTags
      .filter((t) => (ancestry.get(t.ID)?.length ?? 0) > 1 && tagCategory(ancestry.get(t.ID)!) === TagFilterBits.Source)
      .sort((a, b) => (b.Weight ?? 0) - (a.Weight ?? 0))[0];
    return source?.Name ?? 'Original Work';
  }

  // ---------------------------------------------------------------- user tags (contract §8)

  async userTagPage(q: { page: number; pageSize: number; excludeDescriptions: boolean; includeCount: boolean }) {
    const rows = await this.deps.store.userTags();
    const page = q.pageSize === 0 ? rows : rows.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
    return { Total: rows.length, List: await this.deps.store.userTagModels(page, q) };
  }

  async createUserTag(body: Record<string, unknown>): Promise<Tag> {
    const { store } = this.deps;
    const name = optionalText(body, 'Name')?.trim() ?? '';
    const description = optionalText(body, 'Description')?.trim() ?? '';
    if (!name) throw validationError('Name', 'Name must be set for new tags.');
    if (await store.userTagByName(name)) throw validationError('Name', 'A tag with the name already exists.');
    const [model] = await store.userTagModels([await store.createUserTag(name, description)]);
    return model;
  }

  async userTag(tagId: number, options: { includeCount: boolean }): Promise<Tag> {
    const row = await this.deps.store.userTag(tagId);
    if (!row) throw textError(404, USER_TAG_NOT_FOUND);
    return (await this.deps.store.userTagModels([row], options))[0];
  }

  async updateUserTag(tagId: number, body: Record<string, unknown>, options: { includeCount: boolean }): Promise<Tag> {
    const { store } = this.deps;
    const row = await store.userTag(tagId);
    if (!row) throw textError(404, USER_TAG_NOT_FOUND);
    const name = optionalText(body, 'Name')?.trim();
    const description = optionalText(body, 'Description');
    const changes: { name?: string; description?: string } = {};
    if (name && name !== row.name) {
      const clash = await store.userTagByName(name);
      if (clash && clash.id !== row.id) throw validationError('Name', 'A tag with the name already exists.');
      changes.name = name;
    }
    if (description !== null) changes.description = description.trim();
    await store.updateUserTag(row.id, changes);
    return (await store.userTagModels([(await store.userTag(row.id))!], options))[0];
  }

  /** PATCH Tag/User/{tagID}: JSON Patch over `{ Name, Description }` starting from nulls, then the PUT rules. */
  async patchUserTag(tagId: number, operations: unknown, options: { includeCount: boolean }): Promise<Tag> {
    if (!(await this.deps.store.userTag(tagId))) throw textError(404, USER_TAG_NOT_FOUND);
    const body = applyPatch<Record<string, unknown>>({ Name: null, Description: null }, operations, 'Tag');
    return this.updateUserTag(tagId, body, options);
  }

  async deleteUserTag(tagId: number): Promise<void> {
    if (!(await this.deps.store.deleteUserTag(tagId))) throw textError(404, USER_TAG_NOT_FOUND);
  }

  // ---------------------------------------------------------------- AniDB tags (collection.md §8)

  /**
   * Every AniDB tag name once, ordered by name. `hiddenTagIds` are the caller's restricted tags (empty for admins, so
   * restricting one's own account does not remove tags from the picker).
   */
  async anidbTagPage(
    q: { page: number; pageSize: number; filter?: string; excludeDescriptions: boolean; onlyVerified: boolean; includeCount: boolean },
    viewerUserId: number | null,
  ) {
    const filter = q.filter === undefined || q.filter === '' ? 0 : Number(q.filter);
    if (!Number.isSafeInteger(filter) || filter < 0) throw validationError('filter', `The value '${q.filter}' is not valid for filter.`);
    const viewer = await this.deps.access.viewer(viewerUserId);
    const hidden = new Set(viewer.restrictedTags);
    const { store } = this.deps;
    const rows = await store.allAnidbTags();
    const ancestry = filter ? await store.ancestry(rows.map((r) => r.id)) : null;
    const seen = new Set<string>();
    const kept = rows.filter((r) => {
      const key = r.name.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      if (hidden.has(r.id) || (q.onlyVerified && !r.is_verified)) return false;
      return !ancestry || keepCategory(filter, tagCategory(ancestry.get(r.id) ?? [r.name]));
    });
    const page = q.pageSize === 0 ? kept : kept.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
    const counts = q.includeCount ? await store.anidbCounts(page.map((r) => r.id)) : new Map<number, number>();
    const list = page.map((r) =>
      anidbTagModel(r, { excludeDescriptions: q.excludeDescriptions, size: q.includeCount ? (counts.get(r.id) ?? 0) : undefined }),
    );
    return { Total: kept.length, List: list };
  }

  /** Tag/AniDB/{tagID}: 404 for an unknown tag; 403 when the tag is one of the (non-admin) caller's restricted tags. */
  async anidbTag(tagId: number, q: { excludeDescription: boolean; includeCount: boolean }, viewerUserId: number | null): Promise<Tag> {
    const { store, access } = this.deps;
    const row = await store.anidbTag(tagId);
    if (!row) throw textError(404, ANIDB_TAG_NOT_FOUND);
    const viewer = await access.viewer(viewerUserId);
    if (viewer.restrictedTags.includes(row.id)) throw textError(403, ANIDB_TAG_FORBIDDEN);
    const size = q.includeCount ? ((await store.anidbCounts([row.id])).get(row.id) ?? 0) : undefined;
    return anidbTagModel(row, { excludeDescriptions: q.excludeDescription, size });
  }
}
