// The built server's modules some specs load from server/dist to seed a database behind the server's back: a dynamic
// import of a computed path is `any`, so the specs annotate it with the type of the module's source.
export type DatabaseModule = typeof import('../../server/src/db/database');
export type AggregatesModule = typeof import('../../server/src/db/aggregates');
export type SyntheticCollectionModule = typeof import('../../server/src/domains/groups/synthetic');
export type SyntheticStoreModule = typeof import('../../server/src/domains/groups/synthetic.store');
