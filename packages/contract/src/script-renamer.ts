import type { RenamerSetting } from './renamer.js';

/**
 * The built-in script renamer: its ID and default settings are on the wire (GET /Renamer `DefaultSettings`) and are the
 * settings of the `Default` renamer config every new database starts with (migration 0006).
 */
export const SCRIPT_RENAMER_ID = 'WebAOM';

/** The script of the built-in renamer's default settings. */
export const DEFAULT_RENAMER_SCRIPT = [
  '// Sample output: [Group]_Anime_Title_-_01_(1920x1080_BluRay_H264)_[ABCD1234].mkv',
  '// Lines start with DO (always) or IF <tests> DO (when the tests pass); see the renamer README for every tag and test.',
  '',
  "DO ADD '[%grp] '",
  "IF I(eng) DO ADD '%eng '",
  "IF I(ann);I(!eng) DO ADD '%ann '",
  "IF T(!Movie) DO ADD '- %enr'",
  "IF F(!1) DO ADD 'v%ver'",
  "DO ADD ' (%res'",
  "IF R(DVD),R(Blu-ray),R(BluRay) DO ADD ' %src'",
  "DO ADD ' %vid'",
  "IF Z(10) DO ADD ' %bitbit'",
  "DO ADD ') '",
  "DO ADD '[%CRC]'",
  '',
  '// Clean-up',
  "DO REPLACE ' ' '_'",
  "DO REPLACE 'H264/AVC' 'H264'",
  "DO REPLACE '0x0' ''",
  "DO REPLACE '__' '_'",
  "DO REPLACE '__' '_'",
  "DO REPLACE '_)' ')'",
  '',
  '// Characters that are not allowed in file names',
  "DO REPLACE '<' '('",
  "DO REPLACE '>' ')'",
  "DO REPLACE ':' '-'",
  "DO REPLACE '\"' '`'",
  "DO REPLACE '/' '_'",
  "DO REPLACE '\\\\' '_'",
  "DO REPLACE '|' '_'",
  "DO REPLACE '?' '_'",
  "DO REPLACE '*' '_'",
  '',
].join('\n');

/** The script renamer's settings with their default values, in the order the renamer declares them. */
export const SCRIPT_RENAMER_DEFAULT_SETTINGS: RenamerSetting[] = [
  { Name: 'Max Episode Length', Value: 33 },
  { Name: 'Group Aware Sorting', Value: false },
  { Name: 'Script', Value: DEFAULT_RENAMER_SCRIPT },
];
