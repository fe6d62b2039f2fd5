import type { PlaybackAudioStream, PlaybackSubtitle } from '@shoko-ts/contract';

// ISO 639-2 has two codes for some languages (bibliographic, terminology); Matroska files use the first, settings may
// use either.
const TERMINOLOGY_CODES: Record<string, string> = {
  alb: 'sqi',
  arm: 'hye',
  baq: 'eus',
  bur: 'mya',
  chi: 'zho',
  cze: 'ces',
  dut: 'nld',
  fre: 'fra',
  geo: 'kat',
  ger: 'deu',
  gre: 'ell',
  ice: 'isl',
  mac: 'mkd',
  mao: 'mri',
  may: 'msa',
  per: 'fas',
  rum: 'ron',
  slo: 'slk',
  tib: 'bod',
  wel: 'cym',
};

/** One spelling per language: lower case, terminology code. */
export function languageKey(language: string | null | undefined): string {
  const code = (language ?? '').trim().toLowerCase();
  return TERMINOLOGY_CODES[code] ?? code;
}

const sameLanguage = (a: string | null | undefined, b: string | null | undefined) => !!languageKey(a) && languageKey(a) === languageKey(b);

/** What the viewer picked last time in a series, by language so it carries over to the series' other files. */
export interface RememberedTracks {
  audioLanguage: string | null;
  /** A subtitle language, or null when the viewer turned subtitles off. */
  subtitleLanguage: string | null;
}

const storageKey = (user: string, seriesId: number) => `shoko-ts.player.tracks.${user}.${seriesId}`;

export function loadRememberedTracks(user: string, seriesId: number | null): RememberedTracks | null {
  if (seriesId === null) return null;
  try {
    const parsed = JSON.parse(localStorage.getItem(storageKey(user, seriesId)) ?? 'null') as Partial<RememberedTracks> | null;
    if (!parsed || typeof parsed !== 'object') return null;
    const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
    return { audioLanguage: text(parsed.audioLanguage), subtitleLanguage: text(parsed.subtitleLanguage) };
  } catch {
    return null;
  }
}

export function rememberTracks(user: string, seriesId: number | null, tracks: RememberedTracks) {
  if (seriesId === null) return;
  try {
    localStorage.setItem(storageKey(user, seriesId), JSON.stringify(tracks));
  } catch {
    // Private mode or a full storage: the choice just is not remembered.
  }
}

/** The remembered language, then the preferred languages in order, then the file's default track, then the first. */
export function pickAudio(
  audio: readonly PlaybackAudioStream[],
  preferred: readonly string[],
  remembered: RememberedTracks | null,
): number | null {
  for (const language of [remembered?.audioLanguage, ...preferred]) {
    const matches = audio.filter((stream) => sameLanguage(stream.Language, language));
    if (matches.length) return (matches.find((stream) => stream.Default) ?? matches[0]).Index;
  }
  return (audio.find((stream) => stream.Default) ?? audio[0])?.Index ?? null;
}

function bestSubtitle(candidates: readonly PlaybackSubtitle[]): PlaybackSubtitle | undefined {
  const score = (subtitle: PlaybackSubtitle) => (subtitle.Forced ? 0 : 4) + (subtitle.IsText ? 2 : 0) + (subtitle.Default ? 1 : 0);
  return [...candidates].sort((a, b) => score(b) - score(a))[0];
}

/**
 * The subtitle to show with the picked audio. A remembered choice wins (off included). When the audio is in the
 * viewer's first subtitle language they need no full subtitles, only forced ones (signs, foreign lines) in it;
 * otherwise the first preferred language that has a track. Without a preference that matches, the file's default
 * subtitle track; with no preferences at all, the first full subtitle track (a file carries subtitles to show them).
 */
export function pickSubtitle(
  subtitles: readonly PlaybackSubtitle[],
  preferred: readonly string[],
  audioLanguage: string | null,
  remembered: RememberedTracks | null,
): string | null {
  if (remembered) {
    if (remembered.subtitleLanguage === null) return null;
    const match = bestSubtitle(subtitles.filter((subtitle) => sameLanguage(subtitle.Language, remembered.subtitleLanguage)));
    if (match) return match.ID;
  }
  if (preferred.length && sameLanguage(audioLanguage, preferred[0])) {
    return subtitles.find((subtitle) => subtitle.Forced && sameLanguage(subtitle.Language, preferred[0]))?.ID ?? null;
  }
  for (const language of preferred) {
    const match = bestSubtitle(subtitles.filter((subtitle) => sameLanguage(subtitle.Language, language)));
    if (match) return match.ID;
  }
  const fallback = subtitles.find((subtitle) => subtitle.Default) ?? (preferred.length ? undefined : bestSubtitle(subtitles));
  return fallback?.ID ?? null;
}

/** The `c` key: off → each subtitle track in turn → off. */
export function nextSubtitle(subtitles: readonly PlaybackSubtitle[], current: string | null): string | null {
  const index = subtitles.findIndex((subtitle) => subtitle.ID === current);
  return index + 1 < subtitles.length ? subtitles[index + 1].ID : null;
}

const LANGUAGE_NAMES = typeof Intl !== 'undefined' && 'DisplayNames' in Intl ? new Intl.DisplayNames(['en'], { type: 'language' }) : null;

/** `Japanese`, `English`… for a menu; the code itself when the browser does not know it. */
export function languageName(language: string | null): string {
  const key = languageKey(language);
  if (!key || key === 'und') return 'Unknown';
  try {
    const name = LANGUAGE_NAMES?.of(key);
    return name && name !== key ? name : key;
  } catch {
    return key;
  }
}

/** The language, and the track's own title unless it already names the language (`Japanese (440 Hz)`). */
function withTitle(language: string | null, title: string | null): string {
  const name = languageName(language);
  if (!title) return name;
  return title.toLowerCase().includes(name.toLowerCase()) ? title : `${name} · ${title}`;
}

export function audioLabel(stream: PlaybackAudioStream): string {
  const channels = stream.Channels === 2 ? 'Stereo' : stream.Channels === 1 ? 'Mono' : `${stream.Channels} ch`;
  return [withTitle(stream.Language, stream.Title), `${stream.Codec.toUpperCase()} ${channels}`].join(' · ');
}

export function subtitleLabel(subtitle: PlaybackSubtitle): string {
  return [
    withTitle(subtitle.Language, subtitle.Title),
    subtitle.Forced ? 'Forced' : null,
    subtitle.Kind === 'External' ? 'External' : null,
    subtitle.IsText ? null : 'Burnt in',
  ]
    .filter(Boolean)
    .join(' · ');
}
