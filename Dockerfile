# shoko-ts image: the server and its console. Build and run with compose (compose.yaml: server + PostgreSQL) or alone:
#   docker build -t shoko-ts .
#   docker run -d -p 8111:8111 -v shoko-data:/data -v /srv/anime:/anime shoko-ts     # SQLite in /data
# `docker stop` sends SIGTERM: running jobs end or go back to the queue and the database closes before the exit.

# The workspaces' manifests and the toolchain better-sqlite3 compiles with (it has no prebuilt binary to fetch).
FROM node:20-bookworm-slim AS manifests
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY package.json package-lock.json tsconfig.base.json ./
COPY packages/contract/package.json packages/contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY fakes/package.json fakes/
COPY bench/package.json bench/

# Build: every workspace's dependencies, then the contract, the server and the console.
FROM manifests AS build
RUN npm ci
COPY packages/contract packages/contract
COPY server server
COPY web web
RUN npm run build

# Runtime dependencies only: the server's production packages.
FROM manifests AS deps
RUN npm ci --omit=dev --workspace server

FROM node:20-bookworm-slim
# pg_dump / pg_restore / psql for backups and restores of a PostgreSQL database (Debian's 15, as compose's server).
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    SHOKO_APP_DIR=/app \
    SHOKO_HOME=/data \
    SHOKO_PORT=8111 \
    SHOKO_WEBUI_DIR=/app/web/dist
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/packages/contract/package.json packages/contract/
COPY --from=build /app/packages/contract/dist packages/contract/dist
COPY --from=build /app/server/package.json server/
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/web/dist web/dist
COPY deploy/docker-entrypoint.sh /usr/local/bin/shoko-ts-entrypoint
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8111
STOPSIGNAL SIGTERM
# GET /healthz: 200 while the process, the database and the queue are fine, 503 naming the problem otherwise.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.SHOKO_PORT || 8111) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["/usr/local/bin/shoko-ts-entrypoint"]
