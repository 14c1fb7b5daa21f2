# syntax=docker/dockerfile:1
# Quire: the API (run from TypeScript source with tsx) and the built web client, one port.
#   docker build -t quire .
#   docker run -p 3000:3000 -v quire-data:/data -e ADMIN_PASSWORD=… quire
# Without DATABASE_URL the server starts its embedded PostgreSQL under /data/postgres;
# docker-compose.yml runs it against the official postgres image instead.
# One image, three roles (QUIRE_ROLE): all (default: the API and the job worker), api (calls
# only) or worker (jobs only, answering just /api/health for the health check below):
#   docker run -e QUIRE_ROLE=worker -e DATABASE_URL=… -v quire-data:/data quire

ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------- base: Node 24 + pnpm
FROM ${NODE_IMAGE} AS base
ENV PNPM_HOME=/pnpm \
    PATH=/pnpm:$PATH \
    CI=true \
    TURBO_TELEMETRY_DISABLED=1 \
    DO_NOT_TRACK=1
# The version pinned in package.json's packageManager.
RUN npm install -g pnpm@12.21.0 && pnpm --version
WORKDIR /app

# ---------------------------------------------------------------- build: install, generate, build
FROM base AS build
# Packages first, from the lockfile alone (pnpm fetch), so this layer stays cached until the
# lockfile changes, whatever else changes and however many workspace packages there are.
# The store stays in this stage's layers (not a cache mount): a cached layer never points
# at a store that has been pruned since. This stage is not shipped, so its size is free.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
# install's postinstall generated the Prisma client (gitignored generated code) from
# prisma/schema.prisma; `pnpm build` builds the web client into apps/web/dist (the API has
# no build: it runs from source).
RUN test -f packages/db/src/generated/prisma/client.ts \
    && pnpm build \
    && test -f apps/web/dist/index.html \
    && find . -name .turbo -type d -prune -exec rm -rf {} +

# ---------------------------------------------------------------- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    STORAGE_DIR=/data/blobs \
    WEB_DIST=/app/apps/web/dist
# The app is read-only to the process (owned by root); only /data is written.
COPY --from=build /app /app
RUN mkdir -p /data/blobs && chown -R node:node /data
VOLUME ["/data"]
# The API runs from source: tsx is resolved from @quire/api's own node_modules (pnpm keeps
# packages isolated), so start in that folder. Paths come from the config, not the cwd.
WORKDIR /app/apps/api
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# One process, PID 1 is node itself: SIGTERM reaches server.ts, which closes the server,
# the database pool and (when used) the embedded PostgreSQL.
CMD ["node", "--import", "tsx", "src/server.ts"]
