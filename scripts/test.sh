#!/usr/bin/env bash
# Every test of the project, as CI runs it: formatting, lints, then all unit,
# integration and property tests of the workspace. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# A clean CI build gains nothing from incremental compilation, whose caches
# only cost disk space and time.
export CARGO_INCREMENTAL=0

# Install Debian packages the tests need when they are missing (as root, or
# through sudo).
apt_install() {
    local as=()
    [ "$(id -u)" = 0 ] || as=(sudo)
    "${as[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@" >/dev/null \
        || { "${as[@]}" apt-get update >/dev/null \
            && "${as[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@" >/dev/null; }
}

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== PostgreSQL for the server's PostgreSQL test (installs Debian's postgresql when missing)"
if [ -z "${ROMME_TEST_POSTGRES_URL:-}" ]; then
    command -v pg_lsclusters >/dev/null 2>&1 \
        || apt_install postgresql \
        || echo "could not install PostgreSQL: its test is skipped"
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
[ -x /usr/bin/chromium ] || apt_install chromium
# The debug binary from `cargo test` (the rules crates are optimised in
# test builds too): no extra release build in CI. Where it is depends on
# CARGO_TARGET_DIR (a second checkout may build elsewhere).
cargo build --locked --bin romme
target_dir="${CARGO_TARGET_DIR:-target}"
case "$target_dir" in /*) ;; *) target_dir="$PWD/$target_dir" ;; esac
(cd web && ROMME_BIN="$target_dir/debug/romme" node e2e/run.mjs)
