import { readFile, readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ShokoSourceError } from './shoko-database.js';

/** Where the parts of a Shoko Server data folder are, and its settings as Shoko wrote them. */
export interface ShokoFolder {
  root: string;
  settings: Record<string, unknown>;
  databaseFile: string;
  /** `Anime_HTTP`: AniDB anime XML, `AnimeDoc_<aid>.xml`; null when the folder has none. */
  animeHttpDir: string | null;
  /** `images`: cached AniDB and TMDB pictures; null when the folder has none. */
  imagesDir: string | null;
}

const exists = async (p: string, kind: 'file' | 'dir') => {
  try {
    const info = await stat(p);
    return kind === 'file' ? info.isFile() : info.isDirectory();
  } catch {
    return false;
  }
};

/** Finds the parts of a Shoko data folder, with a message that says what is missing when it is not one. */
export async function locateShokoFolder(folder: string): Promise<ShokoFolder> {
  const typed = folder.trim();
  // `~/.shoko/Shoko.CLI` as the hint shows it: the home folder of the user the server runs as.
  const root = path.resolve(/^~(?=$|[\\/])/.test(typed) ? path.join(os.homedir(), typed.slice(1)) : typed);
  if (!(await exists(root, 'dir'))) throw new ShokoSourceError(`The folder ${root} does not exist or cannot be read.`);
  const settingsFile = path.join(root, 'settings-server.json');
  if (!(await exists(settingsFile, 'file')))
    throw new ShokoSourceError(
      `${root} is not a Shoko Server data folder: it has no settings-server.json (on Linux it is usually ~/.shoko/Shoko.CLI, on Windows C:\\ProgramData\\ShokoServer).`,
    );
  let settings: Record<string, unknown>;
  try {
    settings = JSON.parse((await readFile(settingsFile, 'utf8')).replace(/^\uFEFF/, '')) as Record<string, unknown>;
  } catch (error) {
    throw new ShokoSourceError(`Cannot read ${settingsFile}: ${(error as Error).message}`);
  }
  const database = (settings.Database ?? {}) as Record<string, unknown>;
  const type = String(database.Type ?? 'SQLite');
  if (type.toLowerCase() !== 'sqlite')
    throw new ShokoSourceError(
      `This Shoko Server keeps its data in ${type}; only its SQLite database can be imported. Switch Shoko to SQLite first, or export its ${type} database into SQLite.`,
    );
  const databaseFile = await findDatabaseFile(root, database);
  const animeHttpDir = path.join(root, 'Anime_HTTP');
  const imagesDir = path.join(root, 'images');
  return {
    root,
    settings,
    databaseFile,
    animeHttpDir: (await exists(animeHttpDir, 'dir')) ? animeHttpDir : null,
    imagesDir: (await exists(imagesDir, 'dir')) ? imagesDir : null,
  };
}

async function findDatabaseFile(root: string, database: Record<string, unknown>): Promise<string> {
  const directory = String(database.MySqliteDirectory || 'SQLite');
  const configured = String(database.SQLite_DatabaseFile || 'JMMServer.db3');
  const candidates = [
    path.isAbsolute(configured) ? configured : path.join(root, directory, path.basename(configured)),
    path.join(root, 'SQLite', 'JMMServer.db3'),
  ];
  for (const candidate of candidates) if (await exists(candidate, 'file')) return candidate;
  throw new ShokoSourceError(`No Shoko database found: looked for ${[...new Set(candidates)].join(' and ')}.`);
}

/** `AnimeDoc_<aid>.xml` files of the AniDB cache, by anime id. */
export async function animeDocuments(animeHttpDir: string | null): Promise<Map<number, string>> {
  const docs = new Map<number, string>();
  if (!animeHttpDir) return docs;
  for (const name of await readdir(animeHttpDir)) {
    const match = /^AnimeDoc_(\d+)\.xml$/i.exec(name);
    if (match) docs.set(Number(match[1]), path.join(animeHttpDir, name));
  }
  return docs;
}
