#!/usr/bin/env bash
# The main job on a fresh clone: build the web client (npm ci, vite) when it
# is missing or older than its sources, then start the game server on
# http://127.0.0.1:8080 with the SQLite file romme.db. Extra arguments go to
# `romme serve` (e.g. --bind 0.0.0.0:8080).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f web/dist/index.html ] || [ -n "$(find web/src web/index.html web/package.json -newer web/dist/index.html 2>/dev/null | head -1)" ]; then
    echo "== building the web client"
    (cd web && npm ci --no-audit --no-fund && npm run build)
fi
exec cargo run --release --bin romme -- serve "$@"
