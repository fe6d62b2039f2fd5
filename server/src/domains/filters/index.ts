// Filters: stored and live expressions compiled to SQL, their presets, directories and kept figures.
// This is its public face: what other domains and the wiring may use of it.
export { FilterCompiler, FilterError, normaliseCondition, normaliseSorting } from './compiler/index.js';
export { CREATOR_ROLES, EXPRESSION_BY_ID, SEASONS, SORTING_CRITERIA, stripExpressionId } from './filter-catalogue.js';
export { FiltersService } from './filters.service.js';
export type { LiveFilter } from './filters.service.js';
export { FiltersStore } from './filters.store.js';
export type { CompiledFilter } from './filters.store.js';
export { createFiltersDomain } from './filters.wiring.js';
export { registerFiltersRoutes } from './filters.routes.js';
