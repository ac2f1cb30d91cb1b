#!/usr/bin/env bash
# Installs everything the test suite needs into .venv, then runs lint, types and tests.
# Extra arguments go to pytest (e.g. -m "not e2e").  CI runs this (.ci/run).
#
# The parts, by marker (each given by folder in tests/conftest.py), and how long each
# takes on a 2-core machine (recent CI runs, idle machine):
#   unit + integration + hooks   pytest -m "not e2e"   about 15 min
#   hooks alone                  pytest -m hooks       (a part of the above)
#   e2e, the real agent CLIs     pytest -m e2e         about 9 min
#   this whole script            installs included     about 19-25 min
# A plain `pytest tests/` after `pip install -e '.[test]'` needs no Node.js or spark
# extra: what is missing (the agent CLIs, PySpark, Java, a fast backend) is skipped,
# each skip saying how to install it.
#
# Here everything is installed, so a missing piece is a broken install: with
# REDACTOR_TEST_STRICT=1 (tests/needs.py) the tests that need an agent CLI, hermes-agent
# or a fast backend (hyperscan on x86-64, google-re2) fail instead of skipping.
# REDACTOR_TEST_STRICT=0 tests/run.sh turns that off.  (The PySpark tests still skip
# without Java.)
set -euo pipefail
cd "$(dirname "$0")/.."
export REDACTOR_TEST_STRICT="${REDACTOR_TEST_STRICT:-1}"
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
    echo "tests/run.sh: node/npm not found, so the agent CLIs cannot be installed: their" \
         "end-to-end tests fail (install Node.js 20+, or run with REDACTOR_TEST_STRICT=0" \
         "to skip them)" >&2
fi
.venv/bin/ruff check .
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"
