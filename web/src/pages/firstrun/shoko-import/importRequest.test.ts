import { describe, expect, it } from 'vitest';
import type { ShokoImportReport } from '@shoko-ts/contract';
import { ApiError } from '@/api/client';
import { buildRequest, reportTotals, requestErrors, requestKey } from './importRequest';

describe('buildRequest', () => {
  it('trims, leaves out empty path map rows and the map itself when nothing is left', () => {
    const built = buildRequest({ folder: '  /home/me/.shoko/Shoko.CLI ', rows: [{ id: 1, From: ' ', To: '' }] });
    expect(built.request).toEqual({ Folder: '/home/me/.shoko/Shoko.CLI' });
    expect(built.rowProblems.size).toBe(0);
  });

  it('sends filled rows and names half-filled ones instead of sending', () => {
    const rows = [
      { id: 1, From: 'D:\\Anime\\', To: ' /srv/anime/ ' },
      { id: 2, From: 'E:\\Movies\\', To: '' },
    ];
    const built = buildRequest({ folder: '/shoko', rows });
    expect(built.request).toBeNull();
    expect(built.rowProblems.get(2)).toMatch(/where the folder is now/);
    expect(buildRequest({ folder: '/shoko', rows: rows.slice(0, 1) }).request).toEqual({
      Folder: '/shoko',
      PathMap: [{ From: 'D:\\Anime\\', To: '/srv/anime/' }],
    });
  });

  it('needs a folder', () => {
    expect(buildRequest({ folder: '   ', rows: [] }).request).toBeNull();
  });
});

describe('requestKey', () => {
  it('tells the same import from a changed folder or path map', () => {
    const a = { Folder: '/shoko', PathMap: [{ From: 'D:\\', To: '/d/' }] };
    expect(requestKey(a)).toBe(requestKey({ ...a, PathMap: [{ From: 'D:\\', To: '/d/' }] }));
    expect(requestKey(a)).not.toBe(requestKey({ Folder: '/shoko' }));
    expect(requestKey({ Folder: '/shoko' })).toBe(requestKey({ Folder: '/shoko', PathMap: [] }));
    expect(requestKey(null)).toBeNull();
  });
});

describe('reportTotals', () => {
  it('adds up every kind and its skips', () => {
    const report = {
      Kinds: [
        { Kind: 'Users', Source: 3, Imported: 2, Skipped: [{ Reason: 'no name', Count: 1, Examples: ['4'] }] },
        {
          Kind: 'Files',
          Source: 10,
          Imported: 7,
          Skipped: [
            { Reason: 'a', Count: 2, Examples: [] },
            { Reason: 'b', Count: 1, Examples: [] },
          ],
        },
      ],
    } as ShokoImportReport;
    expect(reportTotals(report)).toEqual({ kinds: 2, source: 13, imported: 9, skipped: 4 });
  });
});

describe('requestErrors', () => {
  const problem = (status: number, body: unknown) => new ApiError(status, 'POST', '/api/v3/ShokoImport/DryRun', body);

  it('puts the 400 problem messages next to the field they name', () => {
    const errors = requestErrors(
      problem(400, {
        status: 400,
        errors: { Folder: ['/x is not a Shoko Server data folder.'], 'PathMap.1.To': ['To must NOT have fewer than 1 characters.'] },
      }),
    );
    expect(errors).toEqual({
      folder: ['/x is not a Shoko Server data folder.'],
      pathMap: ['Row 2: To must NOT have fewer than 1 characters.'],
      general: null,
    });
  });

  it('gives a 409 as one message', () => {
    const errors = requestErrors(
      problem(409, { status: 409, title: 'Conflict', detail: 'A Shoko Server can only be imported into an empty database.' }),
    );
    expect(errors).toEqual({ folder: [], pathMap: [], general: 'A Shoko Server can only be imported into an empty database.' });
  });

  it('has nothing to say without an error', () => {
    expect(requestErrors(null)).toEqual({ folder: [], pathMap: [], general: null });
  });
});
