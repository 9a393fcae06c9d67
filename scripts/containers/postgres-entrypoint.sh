#!/bin/sh
# Entrypoint of the PostgreSQL stand-in (postgres.Containerfile).
set -eu
user=${POSTGRES_USER:-postgres}
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" >"$pwfile"
  initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  db=${POSTGRES_DB:-$user}
  [ "$db" = postgres ] || psql -v ON_ERROR_STOP=1 -U "$user" -d postgres -qc "CREATE DATABASE \"$db\""
  for file in /docker-entrypoint-initdb.d/*.sql; do
    [ -e "$file" ] || continue
    echo "docker-entrypoint.sh: running $file"
    psql -v ON_ERROR_STOP=1 -U "$user" -d "$db" -q -f "$file"
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec "$@"
