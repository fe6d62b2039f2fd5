import type { FilterCondition } from '@shoko-ts/contract';
import type { DialectName } from '../../../db/database.js';
import type { Sql } from './fragments.js';

/** How one filter evaluation sees the database: per series or per group, for one user, on one day. */
export interface FilterScope {
  level: 'series' | 'group';
  userId: number;
  /** `yyyy-MM-dd`. */
  today: string;
  dialect: DialectName;
  /** False when no group has a parent: then a group's series are simply those with its id. */
  nested: boolean;
  /**
   * Compute per-candidate figures (dates, counts, votes over a candidate's series) for every candidate in one grouped
   * pass joined to the candidates (see Candidates.figure), instead of one sub-query per candidate. Pays off when
   * most of the collection is a candidate (a collection page) on a database whose correlated sub-queries are dear.
   */
  joinFigures?: boolean;
  /**
   * Read the figures maintained rows hold from them (Candidates.maintainedFigure): a group's group figures
   * (migration 0051, db/group-figures.ts), a series' own aggregates; instead of computing them over its series.
   */
  maintainedFigures?: boolean;
  /**
   * Results of the regex/fuzzy nodes (shared/text-match.ts), computed before compiling: the candidate ids that match, or
   * with `negate` those that fail. Absent when compiling only to validate.
   */
  textMatches?: Map<FilterCondition, { ids: number[]; negate: boolean }>;
}

/**
 * How a regex/fuzzy node is evaluated: its pattern and the SQL giving the (k = candidate id, v = value) rows the worker
 * tests; the database may settle some candidates itself (`settled`), and leaves only the rest's values to test.
 */
export interface TextMatchPlan {
  kind: 'regex' | 'fuzzy';
  pattern: string;
  ignoreCase: boolean;
  /** Every value must match (AllRegexMatches) rather than any. */
  all: boolean;
  /** Null when the database settles every candidate. */
  values: Sql | null;
  /** The value rows also carry `f`, the value's fold where the database keeps it (db/name-folds.ts), else NULL. */
  folded: boolean;
  /**
   * Candidate ids (column k) whose outcome the database settles without the worker: ones that match for a node on any
   * value (or a single one), ones that fail for AllRegexMatches. Null when the worker decides every candidate.
   */
  settled: Sql | null;
  /** Per-candidate needles (k, v) when a fuzzy node compares with a Right selector instead of Parameter. */
  needles: Sql | null;
}
