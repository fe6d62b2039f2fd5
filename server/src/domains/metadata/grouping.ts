/**
 * Which existing group a new series joins when AutoGroupSeries is on: walk the AniDB relations breadth first up to
 * `maxDepth` hops, ignoring the excluded relation kinds, and take the group of the first related series found.
 */
export async function findRelatedGroup(
  animeId: number,
  options: {
    maxDepth: number;
    excludedRelations: string[];
    relationsOf: (animeId: number) => Promise<Array<{ animeId: number; type: string }>>;
    groupOfAnime: (animeIds: number[]) => Promise<Map<number, number>>;
  },
): Promise<number | null> {
  const excluded = new Set(options.excludedRelations.map(normalizeRelation));
  const seen = new Set([animeId]);
  let frontier = [animeId];
  for (let depth = 0; depth < options.maxDepth && frontier.length; depth++) {
    const next: number[] = [];
    for (const current of frontier) {
      for (const relation of await options.relationsOf(current)) {
        if (excluded.has(normalizeRelation(relation.type)) || seen.has(relation.animeId)) continue;
        seen.add(relation.animeId);
        next.push(relation.animeId);
      }
    }
    if (!next.length) break;
    const groups = await options.groupOfAnime(next);
    for (const candidate of next) {
      const group = groups.get(candidate);
      if (group !== undefined) return group;
    }
    frontier = next;
  }
  return null;
}

/** "Same Setting", "same_setting" and "SameSetting" are the same relation kind. */
export const normalizeRelation = (type: string) => type.toLowerCase().replace(/[^a-z]/g, '');
