import type { FilterCondition, SortingCriteria } from '@shoko-ts/contract';
import { validationError } from '../../http/problem.js';
import type { CollectionReads } from './collection-reads.js';
import type { Viewer } from '../../http/viewer.js';
import { FilterCompiler, FilterError, type FilterScope, type TextMatchPlan } from './compiler/index.js';
import { stripExpressionId } from './filter-catalogue.js';
import { PatternError, runTextMatches, TEXT_MATCHERS } from '../../shared/text-match.js';
import type { CompiledFilter, FiltersStore } from './filters.store.js';

/** A validated live filter: what Preview bodies and saved presets boil down to. */
export interface LiveFilter {
  applyAtSeriesLevel: boolean;
  isDirectory: boolean;
  expression: FilterCondition | null;
  sorting: SortingCriteria | null;
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Live filters compiled for FiltersStore to run (FiltersService evaluates them): checked once without a viewer, then
 * compiled per viewer with their regex/fuzzy nodes resolved beforehand in a worker.
 */
export class LiveFilterCompiler {
  constructor(
    private readonly browse: CollectionReads,
    private readonly store: FiltersStore,
  ) {}

  /** Compiles once against a throwaway scope so semantic errors (missing parameters, wrong selector kinds) are 400s. */
  check(live: LiveFilter): void {
    const compiler = new FilterCompiler({
      level: live.applyAtSeriesLevel ? 'series' : 'group',
      userId: 0,
      today: today(),
      dialect: this.browse.dialect,
      nested: false,
    });
    try {
      if (live.expression) compiler.bool(live.expression);
      compiler.orderBy(live.sorting);
    } catch (error) {
      if (error instanceof FilterError) throw validationError(/sorting/i.test(error.message) ? 'Sorting' : 'Expression', error.message);
      throw error;
    }
  }

  /** Compiles a live filter for one viewer: the condition, the files condition and the sort order, for FiltersStore to run. */
  async compile(live: LiveFilter, viewer: Viewer, options: { onlyWithFiles?: boolean; withinGroups?: number[] }): Promise<CompiledFilter> {
    const nested = await this.browse.nested();
    const scope: FilterScope = {
      level: live.applyAtSeriesLevel ? 'series' : 'group',
      userId: viewer.userId,
      today: today(),
      dialect: this.browse.dialect,
      nested,
    };
    const textMatches = live.expression ? await this.resolveTextMatches(live.expression, scope) : undefined;
    // PostgreSQL's correlated sub-queries are dear: over the whole collection its figures are joined instead; within a
    // few groups the sub-queries are the cheaper. Groups of a nested collection read their subtrees' series in one
    // grouped pass over the tree too, on both databases (each group looked up in the tree costs more than one pass).
    const joinFigures = (scope.dialect === 'postgres' && !options.withinGroups) || (scope.nested && scope.level === 'group');
    const compiler = new FilterCompiler({ ...scope, textMatches, joinFigures, maintainedFigures: true });
    const condition = live.expression ? compiler.bool(live.expression) : null;
    const withFiles = options.onlyWithFiles ? compiler.bool({ Type: 'HasVideoFiles' }) : null;
    const order = compiler.orderBy(live.sorting);
    return { level: scope.level, nested, viewer, condition, withFiles, withinGroups: options.withinGroups, order, joins: compiler.joins() };
  }

  /**
   * Evaluates the regex/fuzzy nodes of an expression (shared/text-match.ts): reads their selector's (candidate, value) pairs
   * and tests them in a worker. Only filters using such nodes pay this, and it grows with the values in the collection.
   */
  private async resolveTextMatches(expression: FilterCondition, scope: FilterScope): Promise<FilterScope['textMatches']> {
    const nodes: FilterCondition[] = [];
    const walk = (node: FilterCondition | undefined) => {
      if (!node) return;
      if (TEXT_MATCHERS.has(stripExpressionId(node.Type))) nodes.push(node);
      walk(node.Left);
      walk(node.Right);
    };
    walk(expression);
    const result: NonNullable<FilterScope['textMatches']> = new Map();
    if (!nodes.length) return result;
    const planner = new FilterCompiler(scope);
    const pairs = (query: NonNullable<TextMatchPlan['values']>, folded = false) => this.store.textMatchPairs(scope.nested, query, folded);
    const inputs = await Promise.all(
      nodes.map(async (node) => {
        const plan = planner.textMatchPlan(node);
        const rows = plan.values ? (await pairs(plan.values, plan.folded)).filter((r) => r.v !== null) : [];
        const needles = plan.needles ? new Map((await pairs(plan.needles)).map((r) => [r.k, r.v ?? ''])) : null;
        return { plan, rows, needles: needles ? rows.map((r) => needles.get(r.k) ?? '') : null };
      }),
    );
    let flags: Uint8Array[];
    try {
      flags = await runTextMatches(
        inputs.map(({ plan, rows, needles }) => ({
          kind: plan.kind,
          pattern: plan.pattern,
          ignoreCase: plan.ignoreCase,
          values: rows.map((r) => String(r.v)),
          needles,
          folded: plan.folded ? rows.map((r) => r.f ?? null) : null,
        })),
      );
    } catch (error) {
      if (error instanceof PatternError) throw validationError('Expression', error.message);
      throw error;
    }
    inputs.forEach(({ plan, rows }, i) => {
      const hits = new Set<number>();
      const misses = new Set<number>();
      rows.forEach((row, j) => (flags[i][j] ? hits : misses).add(Number(row.k)));
      result.set(nodes[i], plan.all ? { ids: [...misses], negate: true } : { ids: [...hits], negate: false });
    });
    return result;
  }
}
