// The filter compiler: FilterCondition trees and sorting chains to SQL fragments, for FiltersStore to run.
export { FilterCompiler } from './filter-compiler.js';
export { FilterError, type CompiledSql } from './fragments.js';
export { normaliseCondition, normaliseSorting } from './normalise.js';
export type { FilterScope, TextMatchPlan } from './scope.js';
