import type { App } from './types.js';

/** The API description as Shoko publishes it: the UI at /swagger/index.html, the document at /swagger/v3/swagger.json. */
export function registerSwaggerAliases(app: App) {
  // Public like the UI: these are registered at once, before app.ts' hook that opens the plugin's /swagger routes.
  const config = { auth: 'none', initFriendly: true } as const;
  app.get('/swagger/index.html', { config, schema: { hide: true } }, (request, reply) =>
    reply.redirect(`${request.publicPrefix}/swagger/`),
  );
  app.get('/swagger/v3/swagger.json', { config, schema: { hide: true } }, (request) =>
    withPublicPrefix(app.swagger() as unknown as Record<string, unknown>, request.publicPrefix),
  );
}

/** Under a base path "Try it out" must call `/shoko/api/…`: the document names the prefix as its server. */
export function withPublicPrefix<T extends Record<string, unknown>>(document: T, publicPrefix: string): T {
  return publicPrefix ? { ...document, servers: [{ url: publicPrefix }] } : document;
}

interface OpenApiParameter {
  required?: boolean;
  in?: string;
  schema?: { default?: unknown };
}

/**
 * A query parameter with a default may be left out; TypeBox declares it as a plain (required) property so that
 * validation fills the default, which would make the published document demand it. Mark those optional.
 */
export function relaxDefaultedParameters<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, { parameters?: OpenApiParameter[] }>> }).paths ?? {};
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'query' && parameter.schema?.default !== undefined) parameter.required = false;
      }
    }
  }
  return document;
}
