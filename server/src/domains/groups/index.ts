// Groups: the collection's group trees, their models, edits and recalculation.
// This is its public face: what other domains and the wiring may use of it.
export { BrowseStore } from './browse.store.js';
export { GroupsService } from './groups.service.js';
export { generateCollection } from './synthetic.js';
export { createCollectionBrowse, createGroupsDomain } from './groups.wiring.js';
export { registerGroupsRoutes } from './groups.routes.js';
