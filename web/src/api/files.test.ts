import { describe, expect, it } from 'vitest';
import { countFailures, fileListRequest, fileSortOrder, nextFilePage } from './files';

describe('fileSortOrder', () => {
  it('defaults to import folder, then file name and relative path', () => {
    expect(fileSortOrder(null, false)).toEqual(['1', '15', '4']);
  });

  it('puts the chosen column first, descending with a minus, without repeating it as a tie-breaker', () => {
    expect(fileSortOrder({ criterion: 'FileSize', descending: true }, false)).toEqual(['-5', '15', '4']);
    expect(fileSortOrder({ criterion: 'FileName', descending: false }, false)).toEqual(['15', '4']);
    expect(fileSortOrder({ criterion: 'RelativePath', descending: true }, false)).toEqual(['-4', '15']);
  });

  it('sends only an explicitly chosen column while searching', () => {
    expect(fileSortOrder(null, true)).toEqual([]);
    expect(fileSortOrder({ criterion: 'CreatedAt', descending: true }, true)).toEqual(['-7']);
  });
});

describe('fileListRequest', () => {
  it('lists through File with the filters as query parameters', () => {
    expect(fileListRequest({ pageSize: 200, includeOnly: ['Unrecognized'], sortOrder: ['1', '15', '4'] }, 2)).toEqual({
      path: 'File',
      query: {
        pageSize: 200,
        page: 2,
        include: undefined,
        exclude: undefined,
        include_only: ['Unrecognized'],
        sortOrder: ['1', '15', '4'],
      },
    });
  });

  it('searches through File/Search with the trimmed text encoded as one path segment', () => {
    expect(fileListRequest({ pageSize: 50, search: '  100% [Group] #1?  ' }, 1).path).toBe('File/Search/100%25%20%5BGroup%5D%20%231%3F');
    expect(fileListRequest({ pageSize: 50, search: '   ' }, 1).path).toBe('File');
  });
});

describe('nextFilePage', () => {
  const page = (Total: number) => ({ Total, List: [] });
  it('asks for another page while the server has more rows than loaded', () => {
    expect(nextFilePage(200, page(450), 1)).toBe(2);
    expect(nextFilePage(200, page(450), 2)).toBe(3);
    expect(nextFilePage(200, page(450), 3)).toBeUndefined();
    expect(nextFilePage(200, page(400), 2)).toBeUndefined();
  });

  it('never pages when everything came at once', () => {
    expect(nextFilePage(0, page(5000), 1)).toBeUndefined();
  });
});

describe('countFailures', () => {
  it('runs every call and counts the rejected ones', async () => {
    const called: number[] = [];
    const failed = await countFailures([1, 2, 3, 4], async (id) => {
      called.push(id);
      if (id % 2 === 0) throw new Error('nope');
    });
    expect(failed).toBe(2);
    expect(called.sort()).toEqual([1, 2, 3, 4]);
  });
});
