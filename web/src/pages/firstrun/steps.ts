export const FIRST_RUN_STEPS = [
  { path: 'acknowledgement', title: 'Acknowledgement' },
  { path: 'local-account', title: 'Local Account' },
  { path: 'anidb-account', title: 'AniDB Account' },
  { path: 'metadata-sources', title: 'Metadata Sources' },
  { path: 'start-server', title: 'Start Server' },
  { path: 'import-folders', title: 'Import Folders' },
  { path: 'data-collection', title: 'Data Collection' },
] as const;

export type FirstRunStep = (typeof FIRST_RUN_STEPS)[number]['path'];
