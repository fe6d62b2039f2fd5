import type { ComponentVersionSet } from '@shoko-ts/contract';
import { ReleasesService } from './releases.service.js';
import { ThemesService } from './themes.service.js';
import { WebUIUpdater } from './webui-updater.js';

export interface WebUIDomain {
  themes: ThemesService;
  releases: ReleasesService;
  updater: WebUIUpdater;
}

/** Builds the console themes, the console/server release checks and the console updater. */
export function createWebUIDomain(deps: { home: string; webuiDir: string | null; versions(): ComponentVersionSet }): WebUIDomain {
  const releases = new ReleasesService(deps.versions);
  return { themes: new ThemesService(deps.home), releases, updater: new WebUIUpdater(deps.webuiDir, releases) };
}
