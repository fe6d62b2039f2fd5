import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** A value or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One of the given strings; the schema is a union of literals, the static type their union. */
export const StringEnum = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((value) => Type.Literal(value))));

/** contract collection.md §1 Title: one title of an entity in one language, from one source. */
export const Title = Type.Object({
  Name: Type.String(),
  Language: Type.String(),
  Type: Type.String(),
  Default: Type.Boolean(),
  Preferred: Type.Boolean(),
  Source: Type.String(),
});
export type Title = Static<typeof Title>;

/** `{ Total, List }` — every paged list of API v3. */
export const ListResult = <T extends TSchema>(item: T) => Type.Object({ Total: Type.Integer(), List: Type.Array(item) });
export type ListResult<T> = { Total: number; List: T[] };

/** RFC 7807 body for validation failures: `errors` maps a field name to its messages. */
export const ValidationProblem = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Literal(400),
  errors: Type.Record(Type.String(), Type.Array(Type.String())),
  traceId: Type.Optional(Type.String()),
});
export type ValidationProblem = Static<typeof ValidationProblem>;

export const ProblemDetails = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.Optional(Type.String()),
  traceId: Type.Optional(Type.String()),
});
export type ProblemDetails = Static<typeof ProblemDetails>;

/** .NET TimeSpan text: `[d.]hh:mm:ss[.fffffff]`. */
export const TimeSpanText = Type.String({ pattern: '^-?(\\d+\\.)?\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,7})?$' });

/** A list query parameter: repeated keys or comma lists (`type=Episode&type=Special`, `includeDataFrom=AniDB,TMDB`). */
export const ListParam = Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())]));
/** An IncludeOnlyFilter query value: `true`, `false` or `only` in any casing (the server names the field when it is not). */
export const IncludeOnlyParam = Type.Optional(Type.String());
