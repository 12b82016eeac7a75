#!/usr/bin/env bash
# Installs what Precept needs to build, run and test on a fresh Debian machine:
#   - the pinned libz3 (from the PyPI wheel z3-solver) into .deps/z3, which the
#     build links against (see .cargo/config.toml and build.rs);
#   - the cvc5 command-line solver (PyPI wheel cvc5) into .deps/cvc5, used by the
#     tests as an independent oracle for the SMT-LIB export;
#   - tmux, for the end-to-end terminal tests;
#   - with --tests only: Chromium from the system packages, for the test that
#     renders `precept report`'s HTML headless (running Precept never needs it),
#     and into .deps/py the official `openai` and `anthropic` Python clients,
#     which the guard's tests drive `precept serve` with, and
#     openapi-spec-validator, which checks the service's /openapi.json.
# It is idempotent: a second run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

FOR_TESTS=0
for arg in "$@"; do
    case "$arg" in
        --tests) FOR_TESTS=1 ;;
        *) echo "setup: unknown option $arg (expected --tests)" >&2; exit 2 ;;
    esac
done

Z3_VERSION=5.4.0.0
CVC5_VERSION=1.4.2

need_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if ! command -v tmux >/dev/null 2>&1; then
    echo "setup: installing tmux"
    need_root apt-get update -qq
    need_root apt-get install -y -qq tmux >/dev/null
fi

if [ "$FOR_TESTS" -eq 1 ] && [ ! -x /usr/bin/chromium ]; then
    echo "setup: installing chromium (for the headless report test)"
    need_root apt-get update -qq
    need_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

PY=${PYTHON:-python3}
if ! command -v "$PY" >/dev/null 2>&1; then
    echo "setup: installing python3 and pip"
    need_root apt-get update -qq
    need_root apt-get install -y -qq python3 python3-pip >/dev/null
fi

if [ ! -f .deps/z3/z3/lib/libz3.so ]; then
    echo "setup: installing libz3 from z3-solver==$Z3_VERSION into .deps/z3"
    rm -rf .deps/z3
    "$PY" -m pip install --quiet --disable-pip-version-check --no-deps \
        --target .deps/z3 "z3-solver==$Z3_VERSION"
fi

if [ ! -x .deps/cvc5/bin/cvc5 ] && [ ! -f .deps/cvc5/.installed ]; then
    echo "setup: installing cvc5==$CVC5_VERSION into .deps/cvc5"
    rm -rf .deps/cvc5
    "$PY" -m pip install --quiet --disable-pip-version-check --no-deps \
        --target .deps/cvc5 "cvc5==$CVC5_VERSION"
    touch .deps/cvc5/.installed
fi

OPENAI_VERSION=3.57.0
ANTHROPIC_VERSION=2.14.0
OPENAPI_VALIDATOR_VERSION=0.9.0
if [ "$FOR_TESTS" -eq 1 ] && [ ! -f ".deps/py/.installed-$OPENAI_VERSION-$ANTHROPIC_VERSION-$OPENAPI_VALIDATOR_VERSION" ]; then
    echo "setup: installing the openai, anthropic and openapi-spec-validator Python packages into .deps/py"
    rm -rf .deps/py
    "$PY" -m pip install --quiet --disable-pip-version-check --no-warn-conflicts \
        --target .deps/py "openai==$OPENAI_VERSION" "anthropic==$ANTHROPIC_VERSION" \
        "openapi-spec-validator==$OPENAPI_VALIDATOR_VERSION"
    touch ".deps/py/.installed-$OPENAI_VERSION-$ANTHROPIC_VERSION-$OPENAPI_VALIDATOR_VERSION"
fi

echo "setup: ready (libz3 in .deps/z3/z3/lib)"
