import { FILE_EXCLUDE_TYPES, FILE_INCLUDE_ONLY_TYPES, FILE_INCLUDE_TYPES, type FileListQuery as FileListRequest } from '@shoko-ts/contract';
import { listItems as listOf } from '../../http/list-query.js';
import { validationError } from '../../http/problem.js';

export const FILE_DATA_SOURCES = ['AniDB', 'TMDB', 'Shoko'] as const;

/** Enum list values by name (any case) or index; an unknown one is a 400 keyed by the field. */
export function enumList<T extends string>(raw: string | string[] | undefined, values: readonly T[], field: string): T[] {
  return listOf(raw).map((item) => {
    const match = /^\d+$/.test(item) ? values[Number(item)] : values.find((v) => v.toLowerCase() === item.toLowerCase());
    if (!match) throw validationError(field, `The value '${item}' is not valid for ${field}.`);
    return match;
  });
}

/** The list options of a File list request (`FileListQuery`), checked in the order the API reports them. */
export function fileListOptions(query: FileListRequest) {
  return {
    page: query.page,
    pageSize: query.pageSize,
    include: enumList(query.include, FILE_INCLUDE_TYPES, 'include'),
    exclude: enumList(query.exclude, FILE_EXCLUDE_TYPES, 'exclude'),
    includeOnly: enumList(query.include_only, FILE_INCLUDE_ONLY_TYPES, 'include_only'),
    sortOrder: listOf(query.sortOrder),
    includeDataFrom: enumList(query.includeDataFrom, FILE_DATA_SOURCES, 'includeDataFrom'),
  };
}
