import type { RenamerSetting, RenamerSettingDefinition, RenamerSettingValue } from '@shoko-ts/contract';
import { DEFAULT_SCRIPT, evaluateScript, parseScript, ScriptError, substituteInvalidCharacters, type RenameSubject } from './script.js';

/** An import folder as renamers see it (never a `None` folder). */
export interface RenameFolder {
  id: number;
  path: string;
  isSource: boolean;
  isDestination: boolean;
}

/** What a renamer gets for one file location. */
export interface RenameInput {
  subject: RenameSubject | null;
  folder: RenameFolder;
  relativePath: string;
  folders: RenameFolder[];
  move: boolean;
  rename: boolean;
  settings: Record<string, RenamerSettingValue>;
  /** Directories (per folder) of other files of the same anime, most recently aired episode first. */
  animeDirectories: { folderId: number; directory: string }[];
  series: { name: string; groupName: string; groupSize: number; restricted: boolean } | null;
}

/** A renamer's answer: a leaf file name (rename) and a destination (move), or an error for this file. */
export type RenameOutput = { fileName?: string; folderId?: number; directory?: string } | { error: string };

export interface SettingSpec extends RenamerSettingDefinition {
  defaultValue: RenamerSettingValue;
}

export interface RenamerPlugin {
  id: string;
  name: string;
  description: string;
  version: string | null;
  settings: SettingSpec[];
  supportsUnrecognized: boolean;
  rename(input: RenameInput): RenameOutput;
}

export const definitionOf = (spec: SettingSpec): RenamerSettingDefinition => {
  const { defaultValue: _default, ...definition } = spec;
  return definition;
};
export const defaultSettingsOf = (plugin: RenamerPlugin): RenamerSetting[] =>
  plugin.settings.map((s) => ({ Name: s.Name, Value: s.defaultValue }));

/** Parsed scripts by text: previews run the same script over thousands of files. */
const parsedScripts = new Map<string, ReturnType<typeof parseScript> | ScriptError>();
function parsedScript(script: string) {
  let parsed = parsedScripts.get(script);
  if (!parsed) {
    try {
      parsed = parseScript(script);
    } catch (error) {
      parsed = error instanceof ScriptError ? error : new ScriptError(String(error));
    }
    if (parsedScripts.size > 50) parsedScripts.clear();
    parsedScripts.set(script, parsed);
  }
  if (parsed instanceof ScriptError) throw parsed;
  return parsed;
}

function destination(input: RenameInput, groupAware: boolean): { folderId: number; directory: string } | { error: string } {
  const subject = input.subject;
  if (!subject) return { error: 'File is unrecognized. Not Moving' };
  const destinations = input.folders.filter((f) => f.isDestination);
  if (groupAware) {
    if (!input.series) return { error: 'Series cannot be found for file' };
    const seriesName = substituteInvalidCharacters(input.series.name);
    if (!seriesName) return { error: 'Series Name is null or empty' };
    const directory = input.series.groupSize > 1 ? `${substituteInvalidCharacters(input.series.groupName)}/${seriesName}` : seriesName;
    const wantsHentai = input.series.restricted;
    const folder = destinations.find((f) => f.path.includes('Hentai') === wantsHentai) ?? (wantsHentai ? destinations[0] : undefined);
    return folder ? { folderId: folder.id, directory } : { error: 'No destination import folder is configured.' };
  }
  const currentDirectory = dirnameOf(input.relativePath);
  for (const candidate of input.animeDirectories) {
    const folder = input.folders.find((f) => f.id === candidate.folderId);
    if (!folder || folder.isSource) continue;
    if (folder.id === input.folder.id && candidate.directory === currentDirectory) continue;
    return { folderId: folder.id, directory: candidate.directory };
  }
  const folder = destinations[0];
  if (!folder) return { error: 'No destination import folder is configured.' };
  const title = substituteInvalidCharacters(subject.mainTitle ?? '');
  if (!title) return { error: 'The anime has no title to name its folder.' };
  return { folderId: folder.id, directory: title };
}

export const dirnameOf = (relativePath: string) => {
  const at = relativePath.lastIndexOf('/');
  return at < 0 ? '' : relativePath.slice(0, at);
};

/** The built-in renamer: a script decides the file name, the anime (or its group) decides the folder. */
export const scriptRenamer: RenamerPlugin = {
  id: 'WebAOM',
  name: 'WebAOM Renamer',
  description:
    'The script renamer: a WebAOM-style script builds the file name from tags over the file metadata (see https://wiki.anidb.net/WebAOM#Scripting).',
  version: '1.0.0',
  supportsUnrecognized: false,
  settings: [
    {
      Name: 'Max Episode Length',
      Description: 'Episode titles (%epn, %epr) are cut to this many characters.',
      SettingType: 'Integer',
      MinimumValue: 1,
      MaximumValue: 250,
      defaultValue: 33,
    },
    {
      Name: 'Group Aware Sorting',
      Description: 'Build destination folders from the group and series names.',
      SettingType: 'Boolean',
      defaultValue: false,
    },
    { Name: 'Script', Description: 'The renaming script.', SettingType: 'Code', Language: 'PlainText', defaultValue: DEFAULT_SCRIPT },
  ],
  rename(input) {
    const result: { fileName?: string; folderId?: number; directory?: string } = {};
    if (input.rename) {
      const script = input.settings['Script'];
      if (typeof script !== 'string' || !script.trim()) return { error: 'The renamer config has no script.' };
      if (!input.subject) return { error: 'Configured renamer does not support unrecognized files, and the file is unrecognized.' };
      const maxLength = Number(input.settings['Max Episode Length'] ?? 33);
      try {
        result.fileName = evaluateScript(parsedScript(script), input.subject, {
          maxEpisodeLength: Number.isFinite(maxLength) && maxLength > 0 ? maxLength : 33,
        });
      } catch (error) {
        if (error instanceof ScriptError) return { error: error.message };
        throw error;
      }
    }
    if (input.move) {
      const target = destination(input, input.settings['Group Aware Sorting'] === true);
      if ('error' in target) return target;
      result.folderId = target.folderId;
      result.directory = target.directory;
    }
    return result;
  },
};

export const RENAMERS: RenamerPlugin[] = [scriptRenamer];
