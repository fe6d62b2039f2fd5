import type { AnimeEpisodeSpec, AnimeSpec, CharacterSpec, CreatorSpec, TagSpec } from './collection.js';

/**
 * Anime_HTTP/AnimeDoc_<id>.xml: AniDB's `request=anime` reply as Shoko cached it, built from the same anime the
 * database rows come from, so both tell the same story.
 */

const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const EPNO_PREFIXES: Record<number, string> = { 1: '', 2: 'C', 3: 'S', 4: 'T', 5: 'P', 6: 'O' };
/** AniDB's `<epno type>` numbers: 1 regular, 2 special, 3 credits, 4 trailer, 5 parody, 6 other. */
const EPNO_TYPES: Record<number, number> = { 1: 1, 3: 2, 2: 3, 4: 4, 5: 5, 6: 6 };

export interface AnimeDocCatalog {
  tags: Map<number, TagSpec>;
  characters: Map<number, CharacterSpec>;
  creators: Map<number, CreatorSpec>;
}

function episodeXml(episode: AnimeEpisodeSpec): string {
  const parts = [
    `    <episode id="${episode.id}" update="2024-01-15">`,
    `<epno type="${EPNO_TYPES[episode.type]}">${EPNO_PREFIXES[episode.type]}${episode.number}</epno>`,
    `<length>${episode.lengthMinutes}</length>`,
  ];
  if (episode.airDate) parts.push(`<airdate>${episode.airDate}</airdate>`);
  parts.push(`<rating votes="${episode.votes}">${episode.rating.toFixed(2)}</rating>`);
  for (const title of episode.titles) parts.push(`<title xml:lang="${title.language}">${escapeXml(title.value)}</title>`);
  if (episode.summary) parts.push(`<summary>${escapeXml(episode.summary)}</summary>`);
  parts.push('</episode>');
  return parts.join('');
}

function resourcesXml(anime: AnimeSpec): string[] {
  const { annId, allCinemaId, syoboiId, siteJp, wikipediaEn } = anime.resources;
  const identifier = (type: number, id: string | number) =>
    `    <resource type="${type}"><externalentity><identifier>${escapeXml(String(id))}</identifier></externalentity></resource>`;
  const lines: string[] = [];
  if (annId !== undefined) lines.push(identifier(1, annId));
  if (siteJp !== undefined)
    lines.push(`    <resource type="4"><externalentity><url>${escapeXml(siteJp)}</url></externalentity></resource>`);
  if (wikipediaEn !== undefined) lines.push(identifier(6, wikipediaEn));
  if (syoboiId !== undefined) lines.push(identifier(8, syoboiId));
  if (allCinemaId !== undefined) lines.push(identifier(9, allCinemaId));
  return lines.length ? ['  <resources>', ...lines, '  </resources>'] : [];
}

export function animeDocXml(anime: AnimeSpec, catalog: AnimeDocCatalog): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<anime id="${anime.id}" restricted="${anime.restricted}">`,
    `  <type>${anime.typeText}</type>`,
    `  <episodecount>${anime.episodes.filter((episode) => episode.type === 1).length}</episodecount>`,
  ];
  if (anime.startDate) lines.push(`  <startdate>${anime.startDate}</startdate>`);
  if (anime.endDate) lines.push(`  <enddate>${anime.endDate}</enddate>`);
  lines.push('  <titles>');
  for (const title of anime.titles) {
    lines.push(`    <title xml:lang="${title.language}" type="${title.type}">${escapeXml(title.value)}</title>`);
  }
  lines.push('  </titles>');
  if (anime.relations.length) {
    lines.push('  <relatedanime>');
    for (const relation of anime.relations) {
      lines.push(`    <anime id="${relation.id}" type="${escapeXml(relation.type)}">${escapeXml(relation.title)}</anime>`);
    }
    lines.push('  </relatedanime>');
  }
  if (anime.similar.length) {
    lines.push('  <similaranime>');
    for (const similar of anime.similar) {
      lines.push(
        `    <anime id="${similar.id}" approval="${similar.approval}" total="${similar.total}">${escapeXml(similar.title)}</anime>`,
      );
    }
    lines.push('  </similaranime>');
  }
  if (anime.url) lines.push(`  <url>${escapeXml(anime.url)}</url>`);
  if (anime.staff.length) {
    lines.push('  <creators>');
    for (const staff of anime.staff) {
      const creator = catalog.creators.get(staff.creatorId)!;
      lines.push(`    <name id="${creator.id}" type="${escapeXml(staff.role)}">${escapeXml(creator.name)}</name>`);
    }
    lines.push('  </creators>');
  }
  lines.push(`  <description>${escapeXml(anime.description)}</description>`);
  const { permanent, temporary, review } = anime.ratings;
  lines.push('  <ratings>');
  lines.push(`    <permanent count="${permanent[1]}">${permanent[0].toFixed(2)}</permanent>`);
  lines.push(`    <temporary count="${temporary[1]}">${temporary[0].toFixed(2)}</temporary>`);
  if (review) lines.push(`    <review count="${review[1]}">${review[0].toFixed(2)}</review>`);
  lines.push('  </ratings>');
  lines.push(`  <picture>${escapeXml(anime.picture)}</picture>`);
  lines.push(...resourcesXml(anime));
  if (anime.tags.length) {
    lines.push('  <tags>');
    for (const { id, weight, localSpoiler } of anime.tags) {
      const tag = catalog.tags.get(id)!;
      const description = tag.description ? `<description>${escapeXml(tag.description)}</description>` : '';
      lines.push(
        `    <tag id="${tag.id}" parentid="${tag.parentId ?? 0}" weight="${weight}" localspoiler="${localSpoiler}" ` +
          `globalspoiler="${tag.globalSpoiler}" verified="${tag.verified}" update="2023-05-01">` +
          `<name>${escapeXml(tag.name)}</name>${description}</tag>`,
      );
    }
    lines.push('  </tags>');
  }
  if (anime.characters.length) {
    lines.push('  <characters>');
    for (const { id, appearance, seiyuuIds } of anime.characters) {
      const character = catalog.characters.get(id)!;
      lines.push(`    <character id="${character.id}" type="${appearance}" update="2023-05-02">`);
      lines.push(`      <name>${escapeXml(character.name)}</name>`);
      lines.push(`      <gender>${character.gender}</gender>`);
      lines.push(`      <charactertype id="${character.kind === 'Character' ? 1 : 3}">${character.kind}</charactertype>`);
      if (character.description) lines.push(`      <description>${escapeXml(character.description)}</description>`);
      lines.push(`      <picture>${escapeXml(character.picture)}</picture>`);
      for (const seiyuuId of seiyuuIds) {
        const seiyuu = catalog.creators.get(seiyuuId)!;
        const picture = seiyuu.picture ? ` picture="${escapeXml(seiyuu.picture)}"` : '';
        lines.push(`      <seiyuu id="${seiyuu.id}"${picture}>${escapeXml(seiyuu.name)}</seiyuu>`);
      }
      lines.push('    </character>');
    }
    lines.push('  </characters>');
  }
  lines.push('  <episodes>');
  for (const episode of anime.episodes) lines.push(episodeXml(episode));
  lines.push('  </episodes>');
  lines.push('</anime>');
  return lines.join('\n') + '\n';
}
