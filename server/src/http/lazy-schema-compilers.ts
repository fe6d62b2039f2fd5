import { setImmediate as nextTurn } from 'node:timers/promises';
import AjvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Validator = ((data: unknown, where?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };
type RouteSchema = { method?: string; url?: string };

/**
 * Fastify's own validator (ajv) and serializer (fast-json-stringify) compilers, made lazy: a route's code is generated
 * on its first request instead of for all ~470 routes at start-up, which took most of the 3 s a fresh server needed
 * before it listened. Validators keep ajv's cache for the life of the process, so an application built again in the
 * same process (the API tests build one per test file) reuses what the first one compiled.
 *
 * Left at that, the first request of each route pays its compile (about 100–200 ms for a file list's query and
 * answer schemas); `warm` compiles what is still pending in the background once the server has started.
 */
const buildValidator = AjvCompiler();
const buildSerializer = SerializerSelector();

type PendingCompile = { route: RouteSchema; compile: () => void };

/**
 * A compiled-once getter of `compile()`, registered in `pending` until then. `warm` runs after a compile that the
 * warm-up (not a request) made, for what the compile itself leaves to the first use.
 */
function lazily<T>(pending: Set<PendingCompile>, route: unknown, compile: () => T, warm?: (compiled: T) => void): () => T {
  let compiled: T | undefined;
  // Fastify passes { schema, method, url, httpPart | httpStatus }; the typings say only 'a schema'.
  const entry = {
    route: route as RouteSchema,
    compile: () => {
      const done = get();
      warm?.(done);
    },
  };
  const get = () => {
    if (compiled === undefined) {
      compiled = compile();
      pending.delete(entry);
    }
    return compiled;
  };
  pending.add(entry);
  return get;
}

/**
 * The compilers of one application, and what they have not compiled yet: an application's own set, so the API tests'
 * many applications in one process neither warm nor keep each other's routes.
 */
export function createLazySchemaCompilers() {
  /** Compiles not yet done, with their route: registered when Fastify sets a route up, dropped once compiled. */
  const pending = new Set<PendingCompile>();
  const compilersFactory = {
    buildValidator: (...factoryArgs: Parameters<typeof buildValidator>) => {
      const compile = buildValidator(...factoryArgs);
      return (route: Parameters<typeof compile>[0]) => {
        const compiled = lazily(pending, route, () => compile(route) as Validator);
        const validate: Validator = (data, where) => {
          const check = compiled();
          const result = check(data, where);
          // Fastify reads the failures from the function it called.
          validate.errors = check.errors;
          return result;
        };
        // Fastify gives the request part's parent only to a validator with an environment, and ajv needs it to coerce a
        // root value in place: without it a body of `null` passed an array schema as [0] while the handler got null.
        validate.schemaEnv = true;
        return validate;
      };
    },
    buildSerializer: (...factoryArgs: Parameters<typeof buildSerializer>) => {
      const compile = buildSerializer(...factoryArgs);
      return (route: Parameters<typeof compile>[0]) => {
        const compiled = lazily(
          pending,
          route,
          () => compile(route),
          (serialize) => {
            // fast-json-stringify picks a union's branch (a nullable field, an enum) with ajv, compiled on the first
            // value that reaches it: two made-up answers, one taking each union's first branch and one its last, reach
            // most. Only for the successful answers of reads, the first pages a user opens; the rest keep that for first use.
            const { schema, httpStatus } = route as { schema?: unknown; httpStatus?: string };
            if (warmOrder({ route: route as RouteSchema }) !== 0 || !String(httpStatus).startsWith('2')) return;
            for (const branch of ['first', 'last'] as const) {
              try {
                serialize(sampleOf(schema, branch));
              } catch {
                // A made-up answer the schema refuses: what it reached is compiled all the same.
              }
            }
          },
        );
        return (payload: unknown) => compiled()(payload);
      };
    },
    // The typings want ajv's full function (its schema and environment); Fastify only calls it and reads `errors`.
  } as unknown as CompilersFactory;
  return {
    compilersFactory,
    /** Compiles everything still pending in the background (see warmPending); answers how many it compiled. */
    warm: () => warmPending(pending),
    /** How many compiles are still pending. */
    pendingCount: () => pending.size,
  };
}

type JsonSchema = {
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  const?: unknown;
  enum?: unknown[];
  format?: string;
};

/** A value of `schema`, taking each union's first or last branch; depth-limited for recursive schemas. */
function sampleOf(schema: unknown, branch: 'first' | 'last', depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 16) return null;
  const s = schema as JsonSchema;
  const union = s.anyOf ?? s.oneOf;
  if (union?.length) return sampleOf(branch === 'first' ? union[0] : union[union.length - 1], branch, depth + 1);
  if ('const' in s) return s.const;
  if (s.enum?.length) return s.enum[0];
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const type = branch === 'first' ? types[0] : types[types.length - 1];
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([key, value]) => [key, sampleOf(value, branch, depth + 1)]));
    case 'array':
      return [sampleOf(s.items, branch, depth + 1)];
    case 'string':
      return s.format === 'date-time' ? new Date(0).toISOString() : s.format === 'date' ? '1970-01-01' : 'x';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** Reads first: the lists and pages a user opens after a start (GETs and the filter previews), then the rest. */
const warmOrder = ({ route }: { route: RouteSchema }) => (route.method === 'GET' || /\/Filter\/Preview/i.test(route.url ?? '') ? 0 : 1);

/** Slices of about this many ms, so a request waits at most that long behind the warm-up. */
const SLICE_MS = 8;

/**
 * Compiles every schema still pending, a slice at a time between requests; answers how many it compiled. A route whose
 * compile fails is left to its first request, which reports the failure as before.
 */
async function warmPending(pending: Set<PendingCompile>): Promise<number> {
  const queue = [...pending].sort((a, b) => warmOrder(a) - warmOrder(b));
  let compiled = 0;
  while (queue.length) {
    const sliceEnd = performance.now() + SLICE_MS;
    while (queue.length && performance.now() < sliceEnd) {
      const entry = queue.shift()!;
      if (!pending.has(entry)) continue;
      try {
        entry.compile();
        compiled++;
      } catch {
        pending.delete(entry);
      }
    }
    await nextTurn();
  }
  return compiled;
}
