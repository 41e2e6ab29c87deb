#!/usr/bin/env bash
# Every test of the project, as CI runs it: formatting, lints, then all unit,
# integration and property tests of the workspace. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo test"
cargo test --workspace --locked
