import type { FilterCondition, SortingCriteria } from '@shoko-ts/contract';
import { Candidates } from './candidates.js';
import { condition } from './conditions.js';
import { dateSelector } from './date-selectors.js';
import type { Sql } from './fragments.js';
import { numberSelector } from './number-selectors.js';
import type { FilterScope, TextMatchPlan } from './scope.js';
import { orderBy } from './sorting.js';
import { textMatchPlan } from './text-matches.js';

/**
 * Compiles a contract FilterCondition into one SQL boolean over the candidate row `it` (a `series` row joined with
 * its anime as `ia`, or a `groups` row), and a sorting chain into ORDER BY terms, for one scope (Candidates). Each
 * selector is a correlated sub-query over the candidate's series, or a figure joined once (joins()).
 */
export class FilterCompiler {
  private readonly candidates: Candidates;

  constructor(scope: FilterScope) {
    this.candidates = new Candidates(scope);
  }

  /** The figure joins the compiled fragments read; see Candidates.joins. Call it after compiling. */
  joins(): Sql {
    return this.candidates.joins();
  }

  /** A boolean expression node. */
  bool(node: FilterCondition): Sql {
    return condition(this.candidates, node);
  }

  /** What the service must evaluate outside SQL for a regex/fuzzy node; raises FilterError for a malformed node. */
  textMatchPlan(node: FilterCondition): TextMatchPlan {
    return textMatchPlan(this.candidates, node);
  }

  /** ORDER BY terms for a sorting chain; unknown criteria raise. NULLs sort last either way. */
  orderBy(sorting: SortingCriteria | null | undefined): Sql {
    return orderBy(this.candidates, sorting);
  }

  /** A number selector as a scalar (never NULL). */
  numberSelector(id: string): Sql {
    return numberSelector(this.candidates, id);
  }

  /** A date selector as `yyyy-MM-dd` text (NULL when unknown). */
  dateSelector(id: string): Sql {
    return dateSelector(this.candidates, id);
  }
}
