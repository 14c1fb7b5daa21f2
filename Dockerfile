# syntax=docker/dockerfile:1
# Quire: the built API (apps/api/dist, plain node) and the built web client, one port.
#   docker build -t quire .
#   docker run -p 3000:3000 -v quire-data:/data -e ADMIN_PASSWORD=… quire
# Without DATABASE_URL the server starts its embedded PostgreSQL under /data/postgres;
# docker-compose.yml runs it against the official postgres image instead.
# One image, three roles (QUIRE_ROLE): all (default: the API and the job worker), api (calls
# only) or worker (jobs only, answering just /api/health for the health check below):
#   docker run -e QUIRE_ROLE=worker -e DATABASE_URL=… -v quire-data:/data quire
# Every secret can be a file instead (Docker secrets): ADMIN_PASSWORD_FILE=/run/secrets/…

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
# The patches pnpm applies at install (patchedDependencies in pnpm-workspace.yaml).
COPY patches ./patches
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
# install's postinstall generated the Prisma client (gitignored generated code) from
# prisma/schema.prisma. `pnpm build` builds the web client and bundles the server;
# `pnpm build:deploy` puts them with the production dependencies only, prisma/ and nothing
# else into /deploy (scripts/deploy.mjs), the folder the runtime stage copies.
RUN test -f packages/db/src/generated/prisma/client.ts \
    && pnpm build \
    && node scripts/deploy.mjs --out /deploy \
    && test -f /deploy/dist/server.mjs \
    && test -f /deploy/apps/web/dist/index.html

# ---------------------------------------------------------------- runtime
# Node and the production folder: no pnpm, no npm, no compilers, no sources, no dev tools.
FROM ${NODE_IMAGE} AS runtime
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
    && mkdir -p /data/blobs /backups && chown -R node:node /data /backups
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    STORAGE_DIR=/data/blobs
# The app is read-only to the process (owned by root); only /data is written.
COPY --from=build /deploy /app
# /backups: where docker-compose.yml points BACKUP_DIR (its own volume).
VOLUME ["/data"]
WORKDIR /app
USER node
EXPOSE 3000
# Healthy when /api/health says ok: the database answers and no disk (blobs, data) is nearly
# full. `degraded` or `unavailable` turns the container unhealthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>r.json()).then(h=>{console.log(h.status+(h.failing?.length?': '+h.failing.join(', '):''));process.exit(h.status==='ok'?0:1)},()=>process.exit(1))"]
# One process, PID 1 is node itself: SIGTERM (docker stop) reaches the server, which closes
# the server, the database pool and (when used) the embedded PostgreSQL. The flag keeps the
# young generation small (idle memory; decision 016).
CMD ["node", "--max-semi-space-size=1", "--v8-pool-size=1", "dist/server.mjs"]
