/*
 * Query keys of the two domains that invalidate each other (deleting files changes folder sizes; deleting a folder
 * with its records removes files), kept here so neither domain module has to import the other.
 */

export const importFolderKeys = {
  all: ['import-folders'] as const,
  list: ['import-folders', 'list'] as const,
};

export const fileKeys = {
  all: ['files'] as const,
  lists: ['files', 'list'] as const,
  /** One file list; `params` are the list's FileListParams (files.ts), typed there. */
  list: <Params extends object>(params: Params) => ['files', 'list', params] as const,
};
