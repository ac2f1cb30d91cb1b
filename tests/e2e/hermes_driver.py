"""Runs one real hermes-agent turn in this process; prints a JSON summary on stdout.

Usage: python hermes_driver.py <base_url> <message> [toolset,...]
HERMES_HOME must be set before this process starts (Hermes reads it at import).
"""

from __future__ import annotations

import json
import sys


def main() -> int:
    base_url, message = sys.argv[1], sys.argv[2]
    toolsets = [t for t in (sys.argv[3] if len(sys.argv) > 3 else "").split(",") if t]
    import os
    from pathlib import Path

    from hermes_cli.config import load_config
    from hermes_cli.plugins import discover_plugins, get_plugin_manager

    discover_plugins()
    from agent import shell_hooks

    shell_hooks.register_from_config(load_config(), accept_hooks=False)
    import hermes_state
    import run_agent

    home = Path(os.environ["HERMES_HOME"])
    db = hermes_state.SessionDB(db_path=home / "state.db")
    agent = run_agent.AIAgent(
        api_key="dummy-key", base_url=base_url, provider="custom", model="fake-model",
        max_iterations=5, enabled_toolsets=toolsets, quiet_mode=True,
        skip_context_files=True, skip_memory=True, save_trajectories=False, platform="cli",
        session_db=db, session_id="e2e-session")
    result = agent.run_conversation(message, conversation_history=[], task_id="t")
    rows = db._conn.execute(
        "SELECT role, content, tool_calls FROM messages WHERE session_id = ? ORDER BY id",
        ("e2e-session",)).fetchall() if hasattr(db, "_conn") else []
    manager = get_plugin_manager()
    print(json.dumps({
        "final_response": result.get("final_response"),
        "turn_exit_reason": result.get("turn_exit_reason"),
        "api_calls": result.get("api_calls"),
        "plugins": sorted(getattr(manager, "_plugins", {}) or []),
        "hooks": sorted(getattr(manager, "_hooks", {})),
        "rows": [list(map(str, r)) for r in rows],
    }, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
