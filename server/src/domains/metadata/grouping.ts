/**
 * Auto-grouping (AutoGroupSeries): which series belong together, judged from the stored AniDB relations, and which of
 * them leads the group.
 *
 * Facts taken from Shoko Server (its auto-group calculator), rewritten here:
 * - `AutoGroupSeriesRelationExclusions` lists relation kinds to ignore, plus `movie` / `ova` (ignore every relation
 *   touching an anime of that type) and `AllowDissimilarTitleExclusion` (the "secondary" relations — alternative
 *   setting/version, same setting, character, other — only count when both titles share enough words).
 * - With `AutoGroupSeriesUseScoreAlgorithm` the main anime is the one with the highest score, lowest AniDB id on a tie:
 *   TV 3, Web 2, OVA 1 point; 2 per anime in its sequel chain (itself included) that has a sequel; 1 per alternative
 *   setting it is part of; 1 per summary of it; 2 per side story of it. Without it the earliest aired anime leads.
 * Shoko may pick an anime that is not in the collection (and then shows the earliest series); the main series here is
 * always the best-scoring series of the group.
 */

/** One stored AniDB relation: anime `to` is the `type` of anime `from` (a `Sequel` row points at the sequel). */
export interface RelationRow {
  from: number;
  to: number;
  type: string;
  /** The related anime's title as AniDB listed it with the relation (the anime itself may not be stored). */
  toTitle: string | null;
}

/** What grouping needs to know of a stored AniDB anime. */
export interface AnimeFacts {
  type: string;
  title: string;
}

export interface RelationSource {
  /** Every stored relation row from or to one of the anime. */
  rowsTouching(animeIds: number[]): Promise<RelationRow[]>;
  /** Type and main title of those anime that are stored. */
  facts(animeIds: number[]): Promise<Map<number, AnimeFacts>>;
}

export interface GroupingRules {
  /** How many relation hops away a related anime may be (AniDb.MaxRelationDepth). */
  maxDepth: number;
  /** AutoGroupSeriesRelationExclusions as saved. */
  exclusions: string[];
}

export interface RelationGraph {
  /** Every anime reached, the starting anime first, then nearest first. */
  order: number[];
  /** The relations grouping follows between anime of the graph. */
  edges: RelationRow[];
  facts: Map<number, AnimeFacts>;
}

/** "Same Setting", "same_setting" and "SameSetting" are the same relation kind. */
export const normalizeRelation = (type: string) => type.toLowerCase().replace(/[^a-z]/g, '');

const RELATION_KINDS = new Set([
  'prequel',
  'sequel',
  'fullstory',
  'summary',
  'parentstory',
  'sidestory',
  'alternativesetting',
  'alternativeversion',
  'samesetting',
  'character',
  'other',
]);
const SECONDARY_KINDS = new Set(['alternativesetting', 'alternativeversion', 'samesetting', 'character', 'other']);
/** Unknown relation texts count as "other", as in Shoko. */
const kindOf = (type: string) => {
  const kind = normalizeRelation(type);
  return RELATION_KINDS.has(kind) ? kind : 'other';
};

interface Exclusions {
  kinds: Set<string>;
  movie: boolean;
  ova: boolean;
  dissimilarTitles: boolean;
}

function parseExclusions(list: string[]): Exclusions {
  const all = new Set(list.map(normalizeRelation));
  return { kinds: all, movie: all.has('movie'), ova: all.has('ova'), dissimilarTitles: all.has('allowdissimilartitleexclusion') };
}

/** Breadth first over the stored relations (both directions) up to `maxDepth` hops, skipping excluded relations. */
export async function relationGraph(startIds: number[], rules: GroupingRules, source: RelationSource): Promise<RelationGraph> {
  const exclusions = parseExclusions(rules.exclusions);
  const facts = new Map<number, AnimeFacts>();
  const asked = new Set<number>();
  const seen = new Set(startIds);
  const order = [...startIds];
  const edges = new Map<string, RelationRow>();
  let frontier = [...startIds];
  for (let depth = 0; frontier.length; depth++) {
    const rows = await source.rowsTouching(frontier);
    const unknown = [...new Set(rows.flatMap((r) => [r.from, r.to]))].filter((id) => !asked.has(id));
    unknown.forEach((id) => asked.add(id));
    if (unknown.length) for (const [id, f] of await source.facts(unknown)) facts.set(id, f);
    const here = new Set(frontier);
    const next: number[] = [];
    for (const row of rows) {
      if (row.from === row.to || !considered(row, exclusions, facts)) continue;
      for (const [near, far] of [
        [row.from, row.to],
        [row.to, row.from],
      ] as const) {
        if (here.has(near) && !seen.has(far) && depth < rules.maxDepth) {
          seen.add(far);
          order.push(far);
          next.push(far);
        }
      }
      if (seen.has(row.from) && seen.has(row.to)) edges.set(`${row.from}:${row.to}:${kindOf(row.type)}`, row);
    }
    frontier = next;
  }
  return { order, edges: [...edges.values()], facts };
}

function considered(row: RelationRow, exclusions: Exclusions, facts: Map<number, AnimeFacts>): boolean {
  const kind = kindOf(row.type);
  if (exclusions.kinds.has(kind)) return false;
  const types = [facts.get(row.from)?.type, facts.get(row.to)?.type];
  if (exclusions.movie && types.includes('Movie')) return false;
  if (exclusions.ova && types.includes('OVA')) return false;
  if (exclusions.dissimilarTitles && SECONDARY_KINDS.has(kind))
    return similarTitles(facts.get(row.from)?.title ?? '', facts.get(row.to)?.title ?? row.toTitle ?? '');
  return true;
}

/** Words of a title without punctuation, digits and the usual movie decorations. */
const titleWords = (title: string) =>
  title
    .replace(/-/g, ' ')
    .replace(/gekijouban|the animation|the movie|\p{Nd}|[^\p{L}\p{N}_\s]/giu, '')
    .split(/\s+/)
    .filter(Boolean);

/** Roughly half the words shared, or the shared words make up 40 % of the shorter title. */
export function similarTitles(a: string, b: string): boolean {
  const wordsA = titleWords(a);
  const wordsB = titleWords(b).map((w) => w.toLowerCase());
  let shared = 0;
  let sharedLength = 0;
  for (const word of wordsA) {
    if (!wordsB.includes(word.toLowerCase())) continue;
    shared++;
    sharedLength += word.length;
  }
  if (!shared) return false;
  const letters = (words: string[]) => words.reduce((sum, w) => sum + w.length, 0);
  const shorterLength = Math.min(letters(wordsA), letters(wordsB));
  const fewerWords = Math.min(wordsA.length, wordsB.length);
  return shared >= Math.floor(fewerWords / 2) || sharedLength >= Math.max(1, Math.floor(shorterLength * 0.4));
}

/** The group of the nearest related anime that has a series, or null (a new group). */
export async function findRelatedGroup(graph: RelationGraph, groupOfAnime: (animeIds: number[]) => Promise<Map<number, number>>) {
  const related = graph.order.slice(1);
  if (!related.length) return null;
  const groups = await groupOfAnime(related);
  for (const animeId of related) {
    const group = groups.get(animeId);
    if (group !== undefined) return group;
  }
  return null;
}

const TYPE_POINTS: Record<string, number> = { TV: 3, 'TV Series': 3, Web: 2, OVA: 1 };

/** Prequel, full story and parent story rows read the other way round than sequel, summary and side story rows. */
const READ_BACKWARDS: Record<string, string> = { prequel: 'sequel', fullstory: 'summary', parentstory: 'sidestory' };
const DIRECTED_KINDS = new Set(['sequel', 'summary', 'sidestory']);

/** An edge from the leading anime to the one it leads to (its sequel, summary, side story); others without a direction. */
function directed(row: RelationRow): { kind: string; head: number; tail: number } {
  const kind = kindOf(row.type);
  if (DIRECTED_KINDS.has(kind)) return { kind, head: row.from, tail: row.to };
  if (READ_BACKWARDS[kind]) return { kind: READ_BACKWARDS[kind], head: row.to, tail: row.from };
  return { kind, head: Math.min(row.from, row.to), tail: Math.max(row.from, row.to) };
}

/** Shoko's main-anime score of each anime of the graph (see the file's head). */
export function relationScores(graph: RelationGraph): Map<number, number> {
  const links = [...new Map(graph.edges.map(directed).map((e) => [`${e.kind}:${e.head}:${e.tail}`, e])).values()];
  const sequelsOf = new Map<number, number[]>();
  for (const e of links) if (e.kind === 'sequel') sequelsOf.set(e.head, [...(sequelsOf.get(e.head) ?? []), e.tail]);
  const scores = new Map<number, number>();
  for (const animeId of graph.order) {
    let withSequel = 0;
    const visited = new Set<number>();
    const queue = [animeId];
    while (queue.length) {
      const current = queue.shift()!;
      if (visited.has(current)) continue;
      visited.add(current);
      const sequels = sequelsOf.get(current) ?? [];
      if (sequels.length) withSequel++;
      queue.push(...sequels);
    }
    let score = (TYPE_POINTS[graph.facts.get(animeId)?.type ?? ''] ?? 0) + withSequel * 2;
    for (const e of links) {
      if (e.kind === 'alternativesetting' && (e.head === animeId || e.tail === animeId)) score += 1;
      if (e.kind === 'summary' && e.head === animeId) score += 1;
      if (e.kind === 'sidestory' && e.head === animeId) score += 2;
    }
    scores.set(animeId, score);
  }
  return scores;
}

/** The candidate with the highest score, the lowest AniDB id among equals; null without candidates. */
export function bestScored(candidates: number[], scores: Map<number, number>): number | null {
  let best: number | null = null;
  for (const id of candidates) {
    const score = scores.get(id) ?? 0;
    const bestScore = best === null ? -1 : (scores.get(best) ?? 0);
    if (best === null || score > bestScore || (score === bestScore && id < best)) best = id;
  }
  return best;
}
