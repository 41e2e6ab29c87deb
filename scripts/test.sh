#!/usr/bin/env bash
# Every test of the project, as CI runs it: formatting, lints, then all unit,
# integration and property tests of the workspace. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== PostgreSQL for the server's PostgreSQL test (skipped when none can be started)"
if [ -z "${ROMME_TEST_POSTGRES_URL:-}" ]; then
    ROMME_TEST_POSTGRES_URL=$(bash scripts/postgres.sh || true)
    export ROMME_TEST_POSTGRES_URL
fi
echo "${ROMME_TEST_POSTGRES_URL:-no PostgreSQL}"
[ -n "${ROMME_TEST_POSTGRES_URL:-}" ] || unset ROMME_TEST_POSTGRES_URL
echo "== cargo test"
cargo test --workspace --locked
echo "== web client: npm ci, type check and build, unit tests"
(cd web && npm ci --no-audit --no-fund && npm run build && npx vitest run)
echo "== web client end to end in Chromium (installs Debian's chromium when missing)"
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >/dev/null \
            || { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >/dev/null; }
    else
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >/dev/null
    fi
fi
# The debug binary from `cargo test` (the rules crates are optimised in
# test builds too): no extra release build in CI.
cargo build --locked --bin romme
(cd web && ROMME_BIN=../target/debug/romme node e2e/run.mjs)
