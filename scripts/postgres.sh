#!/usr/bin/env bash
# Start a local PostgreSQL for the server's PostgreSQL test, when this machine
# has Debian's PostgreSQL server (pg_ctlcluster) and we may run it as root.
# Prints the database URL on success, nothing otherwise (the test then skips).
set -uo pipefail
command -v pg_lsclusters >/dev/null 2>&1 || exit 0
[ "$(id -u)" = 0 ] || exit 0
cluster=$(pg_lsclusters --no-header 2>/dev/null | awk 'NR==1 {print $1" "$2}')
[ -n "$cluster" ] || exit 0
# shellcheck disable=SC2086
pg_ctlcluster $cluster start >/dev/null 2>&1 || true
for _ in $(seq 1 20); do
    su postgres -c "psql -qtAc 'select 1'" >/dev/null 2>&1 && break
    sleep 0.5
done
su postgres -c "psql -qtAc \"select 1 from pg_roles where rolname = 'romme'\"" 2>/dev/null | grep -q 1 \
    || su postgres -c "psql -qc \"CREATE USER romme PASSWORD 'romme' CREATEDB\"" >/dev/null 2>&1
su postgres -c "psql -qtAc \"select 1 from pg_database where datname = 'romme_test'\"" 2>/dev/null | grep -q 1 \
    || su postgres -c "createdb -O romme romme_test" >/dev/null 2>&1
url=postgres://romme:romme@127.0.0.1/romme_test
psql "$url" -qtAc 'select 1' >/dev/null 2>&1 && echo "$url"
