"""UserPromptSubmit with the model gateway: a prompt whose data the wire will redact is let
through (with a notice) only when this session's endpoint proves it is a redactor gateway
holding the user's token; otherwise it is blocked as before.

The "gateway" here is a small loopback server answering ``/redactor/v1/hello`` the way
redactor's does (or the wrong way); the real gateway answers it in
tests/integration/test_gateway_app.py and end to end in tests/e2e.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from redactor import Settings
from redactor.gateway import identity
from redactor.hosts import claude

CPF = "529.982.247-25"
PRIVATE_KEY = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0t"
               "RgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gn"
               "\n-----END RSA PRIVATE KEY-----")


class Hello(ThreadingHTTPServer):
    """Answers the hello with the proof of ``token`` (or garbage when ``honest`` is off)."""

    def __init__(self, token: str, honest: bool = True) -> None:
        self.token, self.honest, self.asked = token, honest, 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                outer.asked += 1
                nonce = parse_qs(urlsplit(self.path).query).get("nonce", [""])[0]
                proof = identity.proof(outer.token if outer.honest else "0" * 64, nonce)
                body = json.dumps({"gateway": "redactor", "proof": proof}).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    env = {"HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state")}
    identity.ensure_token(env)
    return env


def serving(server: Hello) -> Iterator[Hello]:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def gateway(home: dict[str, str]) -> Iterator[Hello]:
    token = identity.read_token(home)
    assert token is not None
    identity._live.clear()
    yield from serving(Hello(token))


def prompt(text: str) -> bytes:
    return json.dumps({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
                       "hook_event_name": "UserPromptSubmit", "prompt": text}).encode()


def ask(text: str, env: dict[str, str]) -> dict[str, Any]:
    outcome = claude.run(prompt(text), Settings(), env=env)
    assert outcome.exit_code == 0
    return json.loads(outcome.stdout) if outcome.stdout else {}


def test_a_verified_gateway_lets_a_cpf_through_with_a_notice(home: dict[str, str],
                                                             gateway: Hello) -> None:
    answer = ask(f"o cliente {CPF} reclamou", {**home, "ANTHROPIC_BASE_URL": gateway.url})
    assert "decision" not in answer
    notice = answer["hookSpecificOutput"]["additionalContext"]
    assert "CPF" in notice and CPF not in notice and "52998224725" not in notice
    assert gateway.asked == 1


def test_the_proof_is_remembered_briefly(home: dict[str, str], gateway: Hello) -> None:
    env = {**home, "ANTHROPIC_BASE_URL": gateway.url}
    ask(f"cliente {CPF}", env)
    ask(f"cliente {CPF}", env)
    assert gateway.asked == 1


def test_without_a_gateway_the_cpf_is_blocked(home: dict[str, str]) -> None:
    answer = ask(f"o cliente {CPF} reclamou", home)
    assert answer["decision"] == "block"
    assert CPF not in answer["reason"]


def test_an_endpoint_without_the_token_does_not_count(home: dict[str, str]) -> None:
    identity._live.clear()
    for server in serving(Hello("ignored", honest=False)):
        answer = ask(f"cliente {CPF}", {**home, "ANTHROPIC_BASE_URL": server.url})
        assert answer["decision"] == "block"
        assert server.asked == 1


def test_a_remote_base_url_is_never_asked(home: dict[str, str]) -> None:
    answer = ask(f"cliente {CPF}", {**home, "ANTHROPIC_BASE_URL": "https://llm.example.com"})
    assert answer["decision"] == "block"


def test_a_private_key_still_blocks_through_a_gateway(home: dict[str, str],
                                                      gateway: Hello) -> None:
    answer = ask(f"minha chave:\n{PRIVATE_KEY}", {**home, "ANTHROPIC_BASE_URL": gateway.url})
    assert answer["decision"] == "block"
    assert "MIIEow" not in answer["reason"]


def test_a_clean_prompt_through_a_gateway_gets_no_notice(home: dict[str, str],
                                                         gateway: Hello) -> None:
    assert ask("liste os arquivos", {**home, "ANTHROPIC_BASE_URL": gateway.url}) == {}


def test_a_gateway_session_whose_gateway_is_down_is_told_how_to_start_it(
        home: dict[str, str], tmp_path: Path) -> None:
    identity._live.clear()
    for server in serving(Hello("x")):
        dead = server.url  # the port is closed once the block ends
    env = {**home, "ANTHROPIC_BASE_URL": dead, "REDACTOR_GATEWAY": "1"}
    answer = ask("liste os arquivos", env)
    assert answer["decision"] == "block"
    assert "redactor gateway start" in answer["reason"]


def test_a_token_file_others_can_read_is_refused(home: dict[str, str], gateway: Hello) -> None:
    os.chmod(identity.token_path(home), 0o644)
    answer = ask(f"cliente {CPF}", {**home, "ANTHROPIC_BASE_URL": gateway.url})
    assert answer["decision"] == "block"
    assert gateway.asked == 0


def test_the_session_start_check_passes_a_live_gateway_without_the_cli(
        home: dict[str, str], gateway: Hello) -> None:
    import subprocess
    import sys

    from redactor.gateway import entry

    env = {**home, "ANTHROPIC_BASE_URL": gateway.url, "PATH": os.environ.get("PATH", "")}
    done = subprocess.run([sys.executable, "-I", "-S", "-X", "importtime", entry.__file__],
                          env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""  # Claude Code would hand a SessionStart hook's stdout to the model
    assert gateway.asked == 1
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert not {name for name in imported if name.startswith(("redactor", "site", "json"))}


def test_the_session_start_check_refuses_a_wrong_proof(home: dict[str, str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from redactor.gateway import entry

    for server in serving(Hello("x", honest=False)):
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.delenv("ANTHROPIC_UNIX_SOCKET", raising=False)
        token = identity.read_token(home)
        assert token is not None
        assert entry._answers(token) is False
        assert server.asked == 1
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "https://api.anthropic.com")
    assert entry._answers("0" * 64) is False  # never asks a remote endpoint
