#!/bin/sh
# Entrypoint of the NATS stand-in (nats.Containerfile).
set -eu
case "${1:-}" in
  -*) set -- nats-server "$@" ;;
esac
exec "$@"
