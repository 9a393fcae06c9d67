# syntax=docker/dockerfile:1
# One image for every app of media-backoffice (distributed mode, docs/api/contract.md §0).
#   docker build -t media-backoffice .
#   docker run -e APP=content -e DATABASE_URL=... -e NATS_URL=... -e CURSOR_SECRET=... media-backoffice
# APP (build arg or run-time variable) picks dist/apps/$APP/src/main.js; a command given to
# `docker run`, compose or Kubernetes (`node dist/apps/<app>/src/main.js`) overrides it.

# Full image (python3, make, g++) to install and compile; slim image to run.
ARG BUILD_IMAGE=node:20-bookworm
ARG NODE_IMAGE=node:20-bookworm-slim

# --- dependencies, with dev tools, for the build ---------------------------------------------
FROM ${BUILD_IMAGE} AS deps
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# --- build: swc through Nx into dist/ ---------------------------------------------------------
FROM deps AS build
# No Nx daemon or cloud in a one-shot container build.
ENV NX_DAEMON=false NX_NO_CLOUD=true
COPY . .
RUN npx nx run-many -t build --skip-nx-cache --outputStyle=static

# --- production dependencies only -------------------------------------------------------------
FROM ${BUILD_IMAGE} AS prod-deps
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && node -e "require('@node-rs/argon2')" \
 && npm cache clean --force

# --- runtime ----------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ARG APP=gateway
ENV NODE_ENV=production \
    APP=${APP}
WORKDIR /app
# Owned by root and read-only to the app user, so a compromised process cannot change its code
# and the container can run with a read-only root filesystem.
COPY --from=prod-deps /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY package.json ./
# Where documents keeps stored files (a volume in compose and Kubernetes); a new named volume
# takes this directory's owner, so the app user can write to it.
RUN mkdir -p /var/lib/media/documents && chown 1000:1000 /var/lib/media/documents
# The `node` user (uid 1000) of the official image; Kubernetes' runAsNonRoot checks the uid.
USER 1000:1000
EXPOSE 3000 3001 3002 3003 3004 3005 3006 3007 3008
# exec: node replaces the shell as PID 1 and gets SIGTERM itself (the apps drain on it).
CMD ["sh", "-c", "exec node dist/apps/${APP}/src/main.js"]
