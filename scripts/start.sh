#!/bin/sh
# `npm start` (after scripts/build-if-stale.mjs): the embedded runner, all nine apps and the
# gateway in one process, with the image's memory settings (docs/operations/containers.md):
# V8's young generation of two 4 MiB semi-spaces, and jemalloc as malloc when this machine has it
# (Debian's libjemalloc2), with the image's MALLOC_CONF; glibc's malloc with two arenas otherwise.
# An LD_PRELOAD or MALLOC_CONF already in the environment is kept as it is.
if [ -z "${LD_PRELOAD+set}" ]; then
  for lib in /usr/lib/x86_64-linux-gnu/libjemalloc.so.2 /usr/lib/aarch64-linux-gnu/libjemalloc.so.2 \
    /usr/lib/libjemalloc.so.2; do
    if [ -r "$lib" ]; then
      export LD_PRELOAD="$lib"
      export MALLOC_CONF="${MALLOC_CONF:-narenas:1,tcache:false,dirty_decay_ms:1000,muzzy_decay_ms:0}"
      break
    fi
  done
fi
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec node --max-semi-space-size=4 dist/tools/embedded/src/main.js "$@"
