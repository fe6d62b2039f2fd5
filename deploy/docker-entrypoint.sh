#!/bin/sh
# Entrypoint of the shoko-ts image (Dockerfile, compose.yaml). Waits until the PostgreSQL of SHOKO_DB accepts
# connections (compose also waits for its healthcheck, but `docker run` does not), then replaces itself with the
# server, so SIGTERM from `docker stop` reaches it directly: running jobs end or go back to the queue, the database
# closes, exit code 0.
set -eu

app_dir="${SHOKO_APP_DIR:-/app}"
export SHOKO_HOME="${SHOKO_HOME:-/data}"
export SHOKO_WEBUI_DIR="${SHOKO_WEBUI_DIR:-$app_dir/web/dist}"
mkdir -p "$SHOKO_HOME"

if [ -n "${SHOKO_DB:-}" ]; then
  wait_seconds="${SHOKO_DB_WAIT_SECONDS:-60}"
  # pg is a dependency of the server, so it resolves from the server's folder.
  cd "$app_dir/server"
  if ! node --input-type=module -e "
    import pg from 'pg';
    const deadline = Date.now() + Number(process.argv[1]) * 1000;
    for (;;) {
      const client = new pg.Client({ connectionString: process.env.SHOKO_DB, connectionTimeoutMillis: 5000 });
      try {
        await client.connect();
        await client.end();
        process.exit(0);
      } catch (error) {
        await client.end().catch(() => undefined);
        if (Date.now() > deadline) {
          console.error('shoko-ts: PostgreSQL (SHOKO_DB) does not accept connections: ' + error.message);
          process.exit(1);
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  " "$wait_seconds"; then
    exit 1
  fi
  cd "$app_dir"
fi

exec node --openssl-legacy-provider "$app_dir/server/dist/main.js" "$@"
