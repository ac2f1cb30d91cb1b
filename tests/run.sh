#!/usr/bin/env bash
# Installs everything the test suite needs into .venv, then runs lint, types and tests.
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
# The real Claude Code CLI for the end-to-end hook tests (pinned; its ~245 MB native
# binary comes from the npm registry as a platform package).
CLAUDE_VERSION=2.1.197
CLAUDE_DIR=.cache/claude-code
if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
    if ! "$CLAUDE_DIR/node_modules/.bin/claude" --version 2>/dev/null | grep -q "^$CLAUDE_VERSION "; then
        mkdir -p "$CLAUDE_DIR"
        npm install --prefix "$CLAUDE_DIR" --no-audit --no-fund --loglevel=error \
            "@anthropic-ai/claude-code@$CLAUDE_VERSION"
    fi
else
    echo "tests/run.sh: node/npm not found; the Claude Code end-to-end tests will be skipped" >&2
fi
.venv/bin/ruff check .
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"
