import AjvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Validator = ((data: unknown) => unknown) & { errors?: unknown };

/**
 * Fastify's own validator (ajv) and serializer (fast-json-stringify) compilers, made lazy: a route's code is generated
 * on its first request instead of for all ~470 routes at start-up, which took most of the 3 s a fresh server needed
 * before it listened. Validators keep ajv's cache for the life of the process, so an application built again in the
 * same process (the API tests build one per test file) reuses what the first one compiled.
 */
const buildValidator = AjvCompiler();
const buildSerializer = SerializerSelector();

export const lazySchemaCompilers = {
  buildValidator: (...factoryArgs: Parameters<typeof buildValidator>) => {
    const compile = buildValidator(...factoryArgs);
    return (route: Parameters<typeof compile>[0]) => {
      let compiled: Validator | undefined;
      const validate: Validator = (data) => {
        compiled ??= compile(route) as Validator;
        const result = compiled(data);
        // Fastify reads the failures from the function it called.
        validate.errors = compiled.errors;
        return result;
      };
      return validate;
    };
  },
  buildSerializer: (...factoryArgs: Parameters<typeof buildSerializer>) => {
    const compile = buildSerializer(...factoryArgs);
    return (route: Parameters<typeof compile>[0]) => {
      let compiled: ((payload: unknown) => string) | undefined;
      return (payload: unknown) => (compiled ??= compile(route))(payload);
    };
  },
  // The typings want ajv's full function (its schema and environment); Fastify only calls it and reads `errors`.
} as unknown as CompilersFactory;
