import type { FilterCondition } from '@shoko-ts/contract';
import { describe, expect, it } from 'vitest';
import type { HttpError } from '../../http/problem.js';
import { compileSql } from '../../test/compile-sql.js';
import type { BrowseStore } from '../groups/index.js';
import type { Viewer } from '../../http/viewer.js';
import type { FiltersStore } from './filters.store.js';
import { LiveFilterCompiler, type LiveFilter } from './live-filters.js';

const viewer = { userId: 3 } as Viewer;
const browse = { dialect: 'sqlite', nested: async () => false } as unknown as BrowseStore;
const live = (expression: FilterCondition | null, over: Partial<LiveFilter> = {}): LiveFilter => ({
  applyAtSeriesLevel: false,
  isDirectory: false,
  expression,
  sorting: null,
  ...over,
});
/** A store answering the text-match pairs: the names of candidates 1 and 2. */
const store = {
  textMatchPairs: async () => [
    { k: 1, v: 'Kanon' },
    { k: 2, v: 'Clannad' },
  ],
} as unknown as FiltersStore;

describe('a live filter', () => {
  it('is checked without a viewer: a node that cannot compile is a 400 naming Expression or Sorting', () => {
    const compiler = new LiveFilterCompiler(browse, store);
    expect(() => compiler.check(live({ Type: 'HasTag' }))).toThrow(
      expect.objectContaining({ status: 400, fieldErrors: { Expression: ['HasTag needs a Parameter.'] } }) as HttpError,
    );
    expect(() => compiler.check(live(null, { sorting: { Type: 'HasTag', IsInverted: false } }))).toThrow(
      expect.objectContaining({ fieldErrors: { Sorting: ["Unknown sorting type 'HasTag'."] } }) as HttpError,
    );
    expect(() => compiler.check(live({ Type: 'HasTag', Parameter: 'action' }))).not.toThrow();
  });

  it("compiles for the viewer's level, with the files condition when asked", async () => {
    const compiled = await new LiveFilterCompiler(browse, store).compile(
      live({ Type: 'HasWatchedEpisodes' }, { applyAtSeriesLevel: true }),
      viewer,
      {
        onlyWithFiles: true,
      },
    );
    expect(compiled).toMatchObject({ level: 'series', nested: false, viewer });
    expect(compileSql(compiled.condition!).text).toBe('COALESCE(suo.watched_count > 0, 1 = 0)');
    expect(compileSql(compiled.withFiles!).text).toBe('COALESCE(so.file_count > 0, 1 = 0)');
    expect(compileSql(compiled.joins).text).toBe(
      'LEFT JOIN series_user_aggregates suo ON suo.series_id = it.id AND suo.user_id = 3 LEFT JOIN series_aggregates so ON so.series_id = it.id',
    );
  });

  it('resolves its regex nodes in the worker before compiling, inlining the matching ids', async () => {
    const compiled = await new LiveFilterCompiler(browse, store).compile(
      live({ Type: 'StringRegexMatches', Left: { Type: 'Name' }, Parameter: 'nad$' }),
      viewer,
      {},
    );
    expect(compileSql(compiled.condition!).text).toBe('(it.id IN (2))');
  });
});
