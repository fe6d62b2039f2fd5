/**
 * The renamer script language (documented in README.md next to this file): a line-oriented WebAOM-style language that
 * builds a file name from tags over the file's metadata. It is interpreted here: no `eval`, no `Function`, no access to
 * the file system or the network — a script only sees the plain data of one {@link RenameSubject}. There are no loops or
 * jumps, so a script runs each line at most once; sizes are bounded so a script cannot grow a name without end.
 */
import { DEFAULT_RENAMER_SCRIPT } from '@shoko-ts/contract';

export const MAX_SCRIPT_LENGTH = 64 * 1024;
export const MAX_SCRIPT_LINES = 2000;
export const MAX_NAME_LENGTH = 1024;

export type EpisodeTypeLetter = '' | 'S' | 'C' | 'T' | 'P' | 'O';

export interface SubjectEpisode {
  id: number;
  type: EpisodeTypeLetter;
  number: number;
  englishTitle: string | null;
  romajiTitle: string | null;
}

export interface SubjectAniDBFile {
  fileId: number;
  groupId: number;
  groupShortName: string | null;
  groupLongName: string | null;
  version: number;
  source: string | null;
  audioLanguages: string[];
  subtitleLanguages: string[];
  censored: boolean;
  deprecated: boolean;
  originalName: string | null;
}

/** Everything a script can read about one file. */
export interface RenameSubject {
  animeId: number;
  /** AniDB type text, e.g. `TV Series`, `Movie`. */
  animeType: string;
  year: number | null;
  mainTitle: string | null;
  englishTitle: string | null;
  kanjiTitle: string | null;
  normalEpisodeCount: number;
  specialEpisodeCount: number;
  episodes: SubjectEpisode[];
  anidbFile: SubjectAniDBFile | null;
  ed2k: string;
  crc32: string | null;
  video: { width: number; height: number; codec: string | null; bitDepth: number | null } | null;
  audioCodec: string | null;
  /** With the leading dot, e.g. `.mkv`. */
  extension: string;
  manuallyLinked: boolean;
}

export interface ScriptSettings {
  maxEpisodeLength: number;
}

export class ScriptError extends Error {}

/** Tags in the order they are replaced; every action replaces only those occurring in its own text. */
const TAG_ORDER = [
  'aid',
  'eng',
  'ann',
  'kan',
  'enr',
  'eps',
  'epn',
  'epr',
  'grp',
  'grl',
  'ED2',
  'ed2',
  'CRC',
  'crc',
  'ver',
  'dub',
  'sub',
  'vid',
  'aud',
  'bit',
  'src',
  'typ',
  'res',
  'vdh',
  'yea',
  'fid',
  'eid',
  'gid',
  'sna',
  'cen',
  'dep',
] as const;
type Tag = (typeof TAG_ORDER)[number];

const EPISODE_TYPE_LETTERS: Record<string, EpisodeTypeLetter> = {
  Episode: '',
  Special: 'S',
  Credits: 'C',
  Trailer: 'T',
  Parody: 'P',
  Other: 'O',
};
export const episodeTypeLetter = (type: string): EpisodeTypeLetter => EPISODE_TYPE_LETTERS[type] ?? 'O';

const INVALID_CHARACTERS: [string, string][] = [
  ['*', '\u2605'],
  ['|', '\u00a6'],
  ['\\', '\u29f9'],
  ['/', '\u2044'],
  [':', '\u0589'],
  ['"', '\u2033'],
  ['>', '\u203a'],
  ['<', '\u2039'],
  ['?', '\uff1f'],
];

/** Makes a text safe as one path segment: reserved characters become look-alikes, dots at the edges are replaced. */
export function substituteInvalidCharacters(text: string): string {
  let result = text;
  for (const [from, to] of INVALID_CHARACTERS) result = result.split(from).join(to);
  result = result.split('...').join('\u2026');
  if (result.startsWith('.')) result = `\u2024${result.slice(1)}`;
  if (result.endsWith('.')) result = `${result.slice(0, -1)}\u2024`;
  // Control characters (NUL, new lines) never reach a file name.
  // eslint-disable-next-line no-control-regex
  return result.replace(/[\u0000-\u001f]/g, '').trim();
}

function truncate(title: string, length: number): string {
  return title.length > length ? `${title.slice(0, Math.max(0, length - 1))}\u2026` : title;
}

const ANIME_TYPES: Record<string, string> = {
  movie: 'movie',
  ova: 'ova',
  'tv series': 'tv series',
  'tv special': 'tv special',
  web: 'web',
  other: 'other',
  'music video': 'music video',
};
const animeTypeText = (type: string) => ANIME_TYPES[type.toLowerCase()] ?? 'unknown';

class TagValues {
  constructor(
    private readonly subject: RenameSubject,
    private readonly settings: ScriptSettings,
  ) {}

  private get first(): SubjectEpisode | null {
    return this.subject.episodes[0] ?? null;
  }

  private episodeCount(type: EpisodeTypeLetter): number {
    if (type === '') return this.subject.normalEpisodeCount;
    if (type === 'S') return this.subject.specialEpisodeCount;
    return 1;
  }

  private required(value: string | null | undefined, what: string): string {
    if (value === null || value === undefined || value === '') throw new ScriptError(`No ${what} is known for this file.`);
    return value;
  }

  private groupName(long: boolean): string {
    const file = this.subject.anidbFile;
    const name = long ? file?.groupLongName : file?.groupShortName;
    return !name || name.toLowerCase() === 'raw' ? 'Unknown' : name;
  }

  /** The value of a tag, or null to leave the tag text untouched. */
  value(tag: Tag): string | null {
    const s = this.subject;
    const file = s.anidbFile;
    const first = this.first;
    switch (tag) {
      case 'ann':
        return this.required(s.mainTitle, 'main anime title');
      case 'eng':
        return this.required(s.englishTitle, 'English anime title');
      case 'kan':
        return this.required(s.kanjiTitle, 'Japanese (kanji) anime title');
      case 'epn':
        return truncate(this.required(first?.englishTitle, 'English episode title'), this.settings.maxEpisodeLength);
      case 'epr':
        return truncate(this.required(first?.romajiTitle, 'Romaji episode title'), this.settings.maxEpisodeLength);
      case 'enr': {
        if (!first) throw new ScriptError('The file is not linked to any episode.');
        const width = Math.max(2, String(this.episodeCount(first.type)).length);
        const pad = (n: number) => String(n).padStart(width, '0');
        const last = s.episodes[s.episodes.length - 1];
        return `${first.type}${pad(first.number)}${s.episodes.length > 1 && last.number !== first.number ? `-${pad(last.number)}` : ''}`;
      }
      case 'eps':
        return String(this.episodeCount(first?.type ?? ''));
      case 'grp':
        return this.groupName(false);
      case 'grl':
        return this.groupName(true);
      case 'ed2':
        return s.ed2k.toLowerCase();
      case 'ED2':
        return s.ed2k.toUpperCase();
      case 'crc':
        return s.crc32 ? s.crc32.toLowerCase() : null;
      case 'CRC':
        return s.crc32 ? s.crc32.toUpperCase() : null;
      case 'ver':
        return String(file?.version ?? 1);
      case 'src':
        return file?.source || 'Unknown';
      case 'res':
        return s.video ? `${s.video.width}x${s.video.height}` : '0x0';
      case 'vdh':
        return s.video ? String(s.video.height) : '0';
      case 'yea':
        return s.year === null ? '' : String(s.year);
      case 'typ':
        return animeTypeText(s.animeType);
      case 'fid':
        return file ? String(file.fileId) : null;
      case 'aid':
        return String(s.animeId);
      case 'eid':
        return first ? String(first.id) : '';
      case 'gid':
        return file ? String(file.groupId) : 'Unknown';
      case 'dub':
        return file?.audioLanguages.join(',') ?? '';
      case 'sub':
        return file?.subtitleLanguages.join(',') ?? '';
      case 'vid':
        return s.video?.codec ?? '';
      case 'aud':
        return s.audioCodec ?? '';
      case 'bit':
        return s.video?.bitDepth ? String(s.video.bitDepth) : '';
      case 'sna':
        return file?.originalName ? file.originalName.replace(/\.[^.]*$/, '') : null;
      case 'cen':
        return file?.censored ? 'unc' : 'cen';
      case 'dep':
        return file?.deprecated ? 'DEPR' : 'New';
    }
  }

  /** `I(tag)`: whether the tag has a value. */
  has(name: string): boolean {
    const s = this.subject;
    const file = s.anidbFile;
    switch (name.toLowerCase()) {
      case 'aid':
      case 'enr':
      case 'ver':
        return file !== null;
      case 'sna':
        return !!file?.originalName;
      case 'gid':
      case 'ed2':
      case 'res':
        return true;
      case 'eng':
        return !!s.englishTitle;
      case 'kan':
        return !!s.kanjiTitle;
      case 'ann':
        return !!s.mainTitle;
      case 'epn':
        return !!this.first?.englishTitle;
      case 'epr':
        return !!this.first?.romajiTitle;
      case 'grp':
        return !!file?.groupShortName;
      case 'grl':
        return !!file?.groupLongName;
      case 'crc':
        return !!s.crc32;
      case 'dub':
        return !!file?.audioLanguages.length;
      case 'sub':
        return !!file?.subtitleLanguages.length;
      case 'bit':
        return !!s.video?.bitDepth;
      case 'cen':
        return !!file?.censored;
      case 'dep':
        return !!file?.deprecated;
      default:
        return false;
    }
  }
}

/** `>=2`, `<2000`, `12`: compares a number; null when the value is missing (the test is then false, negated or not). */
function compareNumber(argument: string, actual: number | null | undefined): boolean | null {
  if (actual === null || actual === undefined) return null;
  const match = /^(>=|<=|>|<)?\s*(-?\d+)$/.exec(argument.trim());
  if (!match) throw new ScriptError(`"${argument}" is not a number.`);
  const expected = Number(match[2]);
  switch (match[1]) {
    case '>=':
      return actual >= expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '<':
      return actual < expected;
    default:
      return actual === expected;
  }
}

const equalsIgnoreCase = (a: string | null | undefined, b: string) => (a ?? '').toLowerCase() === b.toLowerCase();

function runTest(letter: string, rawArgument: string, subject: RenameSubject, tags: TagValues): boolean {
  const negated = rawArgument.startsWith('!');
  const argument = negated ? rawArgument.slice(1) : rawArgument;
  const file = subject.anidbFile;
  const first = subject.episodes[0];
  let result: boolean | null;
  switch (letter.toUpperCase()) {
    case 'A':
      result = compareNumber(argument, subject.animeId);
      break;
    case 'G':
      result = file === null ? null : argument.toLowerCase() === 'unknown' ? file.groupId === 0 : compareNumber(argument, file.groupId);
      break;
    case 'F':
      result = compareNumber(argument, file?.version);
      break;
    case 'E':
      result = compareNumber(argument, first?.number);
      break;
    case 'H':
      result = first === undefined ? null : (first.type || 'E') === argument.toUpperCase();
      break;
    case 'X':
      result = compareNumber(argument, subject.normalEpisodeCount);
      break;
    case 'R':
      result = argument.toLowerCase() === 'unknown' ? !file?.source : equalsIgnoreCase(file?.source, argument);
      break;
    case 'T':
      result =
        argument.toLowerCase() === 'unknown'
          ? animeTypeText(subject.animeType) === 'unknown'
          : animeTypeText(subject.animeType) === argument.toLowerCase();
      break;
    case 'Y':
      result = compareNumber(argument, subject.year);
      break;
    case 'D':
      result = file === null ? null : file.audioLanguages.some((l) => equalsIgnoreCase(l, argument));
      break;
    case 'S':
      result =
        argument.toLowerCase() === 'none'
          ? !file?.subtitleLanguages.length
          : !!file?.subtitleLanguages.some((l) => equalsIgnoreCase(l, argument));
      break;
    case 'C':
      result = argument.toLowerCase() === 'unknown' ? !subject.video?.codec : equalsIgnoreCase(subject.video?.codec, argument);
      break;
    case 'J':
      result = argument.toLowerCase() === 'unknown' ? !subject.audioCodec : equalsIgnoreCase(subject.audioCodec, argument);
      break;
    case 'I':
      result = tags.has(argument);
      break;
    case 'Z':
      result = compareNumber(argument, subject.video?.bitDepth || null);
      break;
    case 'W':
      result = compareNumber(argument, subject.video?.width);
      break;
    case 'U':
      result = compareNumber(argument, subject.video?.height);
      break;
    case 'M':
    case 'N':
      result = subject.manuallyLinked;
      break;
    default:
      throw new ScriptError(`Unknown test "${letter}".`);
  }
  if (result === null) return false;
  return negated ? !result : result;
}

type Action = { kind: 'add'; text: string } | { kind: 'replace'; find: string; with: string } | { kind: 'fail' } | { kind: 'none' };
type Test = { letter: string; argument: string };
/** A line: tests in AND groups (`;`), each group an OR (`,`) of tests; no groups means "always". */
interface Statement {
  line: number;
  conditions: Test[][];
  action: Action;
}

export interface ParsedScript {
  statements: Statement[];
}

function parseAction(text: string, line: number): Action {
  const keyword = /^(\w+)/.exec(text)?.[1]?.toUpperCase();
  if (keyword === 'ADD') return { kind: 'add', text: text.slice(4) };
  if (keyword === 'FAIL') return { kind: 'fail' };
  if (keyword === 'REPLACE') {
    const match = /^REPLACE\s+'([^']*)'\s+'([^']*)'\s*$/i.exec(text);
    if (!match) throw new ScriptError(`Line ${line}: REPLACE needs two quoted texts: REPLACE 'find' 'with'.`);
    if (!match[1]) throw new ScriptError(`Line ${line}: the text to replace cannot be empty.`);
    return { kind: 'replace', find: match[1], with: match[2] };
  }
  return { kind: 'none' };
}

function parseConditions(text: string, line: number): Test[][] {
  return text.split(';').map((group) =>
    group.split(',').map((part) => {
      const match = /^\s*([A-Za-z])\(([^()]*)\)\s*$/.exec(part);
      if (!match) throw new ScriptError(`Line ${line}: "${part.trim()}" is not a test like T(Movie).`);
      return { letter: match[1], argument: match[2].trim() };
    }),
  );
}

/** Parses a whole script; syntax errors name their line. */
export function parseScript(script: string): ParsedScript {
  if (script.length > MAX_SCRIPT_LENGTH) throw new ScriptError(`The script is longer than ${MAX_SCRIPT_LENGTH} characters.`);
  const lines = script.split(/\r?\n/);
  if (lines.length > MAX_SCRIPT_LINES) throw new ScriptError(`The script has more than ${MAX_SCRIPT_LINES} lines.`);
  const statements: Statement[] = [];
  lines.forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    const commentAt = trimmed.indexOf('//');
    const text = commentAt >= 0 ? trimmed.slice(0, commentAt) : trimmed;
    if (!text.trim()) return;
    if (/^DO\s/i.test(text)) {
      statements.push({ line, conditions: [], action: parseAction(text.slice(3).trimStart(), line) });
      return;
    }
    if (/^IF [A-Za-z]\(/i.test(text)) {
      const doAt = text.indexOf(' DO ');
      if (doAt < 0) throw new ScriptError(`Line ${line}: an IF line needs an action after " DO ".`);
      statements.push({
        line,
        conditions: parseConditions(text.slice(3, doAt), line),
        action: parseAction(text.slice(doAt + 4).trimStart(), line),
      });
      return;
    }
    throw new ScriptError(`Line ${line}: a line starts with DO or IF.`);
  });
  return { statements };
}

/** Runs a parsed script over one file and returns the new file name (with the file's extension). */
export function evaluateScript(script: ParsedScript, subject: RenameSubject, settings: ScriptSettings): string {
  const tags = new TagValues(subject, settings);
  let name = '';
  for (const statement of script.statements) {
    const conditional = statement.conditions.length > 0;
    if (conditional && !statement.conditions.every((group) => group.some((test) => runTest(test.letter, test.argument, subject, tags))))
      continue;
    const action = statement.action;
    if (action.kind === 'fail') {
      if (conditional) throw new ScriptError(`The script refused this file (FAIL on line ${statement.line}).`);
      continue;
    }
    if (action.kind === 'add') {
      name = (name + action.text).split("'").join('');
      for (const tag of TAG_ORDER) {
        const marker = `%${tag}`;
        if (!action.text.includes(marker)) continue;
        const value = tags.value(tag);
        if (value !== null) name = name.split(marker).join(value);
      }
    } else if (action.kind === 'replace') {
      name = name.split(action.find).join(action.with);
    }
    if (name.length > MAX_NAME_LENGTH) throw new ScriptError(`The generated name is longer than ${MAX_NAME_LENGTH} characters.`);
  }
  if (!name.trim()) throw new ScriptError('The script produced an empty file name.');
  return substituteInvalidCharacters(`${name}${subject.extension}`.split('`').join("'"));
}

/** The script of the built-in renamer's default settings (defined once, in the contract, for migration 0006 too). */
export const DEFAULT_SCRIPT = DEFAULT_RENAMER_SCRIPT;
