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

/** The other way through the wizard: after the acknowledgement, one page imports an existing Shoko Server instead. */
export const SHOKO_IMPORT_STEPS = [
  { path: 'acknowledgement', title: 'Acknowledgement' },
  { path: 'import-shoko', title: 'Import from Shoko Server' },
] as const;
