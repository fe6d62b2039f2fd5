import type { FilterCondition } from '@shoko-ts/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshSeriesAggregates } from '../../db/aggregates.js';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';
import { seedImportFolder } from '../../test/seed-files.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { FilterCompiler, type FilterScope } from './compiler/index.js';

/**
 * Group-level conditions in a nested collection read every series below a group: "Amber Tide" holds "Birch Hollow",
 * which holds "Cinder Vale"; "Dune Walker" stands alone. Each condition is compiled every way a filter run can
 * (sub-queries correlated on the group, figures in one grouped pass over the tree, maintained group figures), and
 * each must give the groups whose subtree meets it.
 */
describe('conditions on the series below nested groups', () => {
  let server: TestServer;
  const group: Record<string, number> = {};

  beforeAll(async () => {
    server = await createTestServer();
    await completeFirstRun(server);
    const db = server.services.db.kysely;
    const specs = [
      { animeId: 701, title: 'Amber Tide', audioLanguages: ['ja'] },
      { animeId: 702, title: 'Birch Hollow', audioLanguages: ['ja'], tags: [{ id: 22, name: 'forest' }] },
      { animeId: 703, title: 'Cinder Vale', audioLanguages: ['ja', 'en'] },
      { animeId: 704, title: 'Dune Walker', audioLanguages: ['ja', 'de'] },
    ];
    let parent: number | null = null;
    for (const [i, spec] of specs.entries()) {
      const episodes = [{ id: spec.animeId * 10, file: true }];
      const written = await insertSeries(db, [{ ...spec, episodes, parentGroupId: i < 3 ? parent : null }]);
      group[spec.title] = written.get(spec.animeId)!.groupId;
      parent = group[spec.title]!;
    }
    // The viewer voted on the deepest series only.
    const cinder = await db.selectFrom('series').select('id').where('anime_id', '=', 703).executeTakeFirstOrThrow();
    await db
      .insertInto('user_series_votes')
      .values({ user_id: 1, series_id: cinder.id, value: 8, vote_type: 'Permanent', updated_at: new Date(0).toISOString() })
      .execute();
    // The deepest series' file lies in a folder named after the top group.
    const file = await db
      .selectFrom('files')
      .innerJoin('file_episode_links as l', (join) => join.onRef('l.ed2k', '=', 'files.ed2k').onRef('l.size', '=', 'files.size'))
      .select('files.id')
      .where('l.episode_id', '=', 7030)
      .executeTakeFirstOrThrow();
    const folder = await seedImportFolder(server, 'media');
    await sql`INSERT INTO file_locations (file_id, import_folder_id, relative_path, is_accessible, mtime_ms)
      VALUES (${file.id}, ${folder}, ${'Amber Tide/Cinder Vale - 01.mkv'}, 1, 0)`.execute(db);
    await refreshSeriesAggregates(db, server.services.db.dialect);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** The groups meeting `condition`, by name, compiled with `scope`. */
  const matching = async (scope: Pick<FilterScope, 'joinFigures' | 'maintainedFigures'>, condition: FilterCondition) => {
    const compiler = new FilterCompiler({
      ...scope,
      level: 'group',
      nested: true,
      userId: 1,
      today: '2026-11-30',
      dialect: server.services.db.dialect,
    });
    const where = compiler.bool(condition);
    const tree = server.services.collection.browse.treeCte(true);
    const { rows } = await sql<{ name: string }>`${tree}SELECT it.name AS name FROM groups it ${compiler.joins()} WHERE ${where}`.execute(
      server.services.db.kysely,
    );
    return rows.map((r) => r.name).sort();
  };

  const cases: Array<[string, FilterCondition, string[]]> = [
    ['a tag of a sub-group', { Type: 'HasTagByID', Parameter: '22' }, ['Amber Tide', 'Birch Hollow']],
    [
      'a figure only computed (votes)',
      { Type: 'NumberGreaterThan', Left: { Type: 'SeriesVoteCount' }, Parameter: '0' },
      ['Amber Tide', 'Birch Hollow', 'Cinder Vale'],
    ],
    [
      'a figure maintained for groups (series count)',
      { Type: 'NumberGreaterThan', Left: { Type: 'SeriesCount' }, Parameter: '1' },
      ['Amber Tide', 'Birch Hollow'],
    ],
    [
      'a figure of the series values (audio languages)',
      { Type: 'NumberGreaterThan', Left: { Type: 'AudioLanguageCount' }, Parameter: '1' },
      ['Amber Tide', 'Birch Hollow', 'Cinder Vale', 'Dune Walker'],
    ],
    [
      'the highest vote below, not 8',
      { Type: 'Not', Left: { Type: 'NumberEquals', Left: { Type: 'HighestUserRating' }, Parameter: '8' } },
      ['Dune Walker'],
    ],
    // Every name below the group holds an "e" ("Birch Hollow" does not): names looked up per group.
    ['every name', { Type: 'AllContains', Left: { Type: 'Names' }, Parameter: 'e' }, ['Cinder Vale', 'Dune Walker']],
    // A path below the group holds the group's own name: a sub-query per group.
    [
      'a path holding the group name',
      { Type: 'AnyContains', Left: { Type: 'FilePaths' }, Right: { Type: 'Name' } },
      ['Amber Tide', 'Cinder Vale'],
    ],
    // Every path below the group holds its name (a group without paths holds it vacuously): one anti-join of the groups
    // and the paths on PostgreSQL.
    [
      'every path holding the group name',
      { Type: 'AllContains', Left: { Type: 'FilePaths' }, Right: { Type: 'Name' } },
      ['Amber Tide', 'Cinder Vale', 'Dune Walker'],
    ],
    ['every path holding a text', { Type: 'AllContains', Left: { Type: 'FilePaths' }, Parameter: 'WALKER' }, ['Dune Walker']],
  ];

  it.each(cases)('%s: every way a filter run compiles it', async (_, condition, expected) => {
    for (const scope of [{ joinFigures: false }, { joinFigures: true }, { joinFigures: true, maintainedFigures: true }])
      expect({ scope, names: await matching(scope, condition) }).toEqual({ scope, names: expected });
  });
});
