#!/usr/bin/env bash
# Installs everything the test suite needs into .venv, then runs lint, types and tests.
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
# The spark extra too: its tests run PySpark in local mode (they skip, saying why, when
# no Java runtime is found).
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test,spark]'
# The real agent CLIs for the end-to-end hook tests, each pinned (two Claude Code
# releases: the adapter must hold on both).  They come from the npm registry; Claude
# Code and Codex as native platform packages.
npm_tool() {  # npm_tool DIR PACKAGE VERSION BIN
    if ! "$1/node_modules/.bin/$4" --version 2>/dev/null | grep -q "$3"; then
        mkdir -p "$1"
        npm install --prefix "$1" --no-audit --no-fund --loglevel=error "$2@$3"
    fi
}
if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
    npm_tool .cache/claude-code @anthropic-ai/claude-code 2.1.197 claude
    npm_tool .cache/claude-code-2.1.332 @anthropic-ai/claude-code 2.1.332 claude
    npm_tool .cache/codex @openai/codex 0.171.0 codex
    npm_tool .cache/gemini-cli @google/gemini-cli 0.61.0 gemini
else
    echo "tests/run.sh: node/npm not found; the agent CLI end-to-end tests will be skipped" >&2
fi
.venv/bin/ruff check .
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"
