"""End to end: the real Claude Code CLI, offline, through the real redactor gateway.

Each test starts a fake Messages API (tests/e2e/fake_anthropic.py) and a gateway
subprocess (``python -m redactor gateway run --port <free> --upstream <fake>``) with a
home, a private runtime folder and a state folder of its own, then installs redactor
with the product's own command (``redactor install claude --user --gateway``): Claude
Code finds the gateway's address, socket and token in its user settings, never in the
process environment.  Assertions look at what the fake received, parsed and byte for
byte, never at the exit code unless the test is about the error.  A module fixture keeps
every body the fake servers received and checks, when the module ends, that none holds
a planted value in any form.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.engine import stop_engine
from tests.e2e.fake_anthropic import FakeAnthropic, Script, serving
from tests.e2e.test_claude_cli import (  # claude_release: each test runs on every pin
    CNPJ,
    CPF,
    REPO,
    claude,
    claude_release,  # noqa: F401
    offline_env,
    release,
)

NAME = "Maria Aparecida Souza"
#: Every value a test plants, in every form it could take on the wire.
PLANTED = (CPF, CPF.replace(".", "").replace("-", ""), CNPJ,
           re.sub(r"[./-]", "", CNPJ), NAME)
#: What the fake model answers last: accents and an emoji, to see it reach the user intact.
FINAL = "Pronto: relatório concluído, ação sem pendências ✅ — até logo 🇧🇷"
#: What the first request of a run may take (the gateway's engine is already built).
RUN_TIMEOUT = 90
HTTP_HOOKS_SINCE = (2, 1, 295)

#: Every request body any fake server of this module received (checked at the end).
_RECEIVED: list[bytes] = []


@pytest.fixture(scope="module", autouse=True)
def nothing_planted_ever_left() -> Iterator[None]:
    """After the module's tests: no body the fake servers received holds a planted
    value, formatted or digits only."""
    yield
    assert _RECEIVED, "no test of the module reached the fake server"
    leaks = sorted({value for raw in _RECEIVED for value in PLANTED
                    if value.encode() in raw})
    assert not leaks, f"{len(leaks)} planted value(s) reached the fake model server"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class World:
    """A home with redactor's user files (config.toml naming the gateway's port and the
    fake upstream, the token), a private runtime folder (the gateway's socket, the warm
    engine's), and the gateway process once started."""

    def __init__(self, root: Path, upstream: str) -> None:
        self.home = root / "home"
        self.home.mkdir(parents=True)
        # AF_UNIX paths are short: the runtime folder (engine and gateway sockets) is too.
        self.runtime = tempfile.mkdtemp(prefix="rdx", dir="/tmp")
        self.port = free_port()
        self.upstream = upstream
        self.log = root / "gateway.stderr"
        config = self.home / ".config" / "redactor" / "config.toml"
        config.parent.mkdir(parents=True)
        # The upstream too: a gateway the SessionStart hook starts must reach the fake.
        config.write_text(f'[gateway]\nport = {self.port}\nupstream = "{upstream}"\n',
                          encoding="utf-8")
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
        env.pop("XDG_CONFIG_HOME", None)  # redactor's user files live in this home
        env["HOME"] = str(self.home)
        env["XDG_RUNTIME_DIR"] = self.runtime
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)
        self.env = env
        self.gateway: subprocess.Popen[bytes] | None = None

    def start_gateway(self, extra_env: dict[str, str] | None = None) -> None:
        with open(self.log, "wb") as log:
            self.gateway = subprocess.Popen(
                [sys.executable, "-m", "redactor", "gateway", "run", "--port", str(self.port),
                 "--upstream", self.upstream],
                env={**self.env, **(extra_env or {})}, cwd=self.home,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 120
        while b"listening" not in self.log.read_bytes():
            assert self.gateway.poll() is None, "the gateway exited: " + \
                self.log.read_text(errors="replace")[-2000:]
            assert time.monotonic() < deadline, "the gateway did not start listening"
            time.sleep(0.1)

    def stop_gateway(self) -> None:
        if self.gateway is not None and self.gateway.poll() is None:
            self.gateway.send_signal(signal.SIGTERM)
            try:
                self.gateway.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.gateway.kill()
                self.gateway.wait(timeout=30)
        # One a SessionStart hook may have started, found by its pid file.
        subprocess.run([sys.executable, "-m", "redactor", "gateway", "stop"], env=self.env,
                       capture_output=True, timeout=60, check=False)

    def close(self) -> None:
        try:
            self.stop_gateway()
        finally:
            stop_engine(self.env)
            shutil.rmtree(self.runtime, ignore_errors=True)


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeAnthropic]:
    with serving(Script(tool=None, final_text=FINAL)) as server:
        yield server


@pytest.fixture(scope="module")
def shared_world(tmp_path_factory: pytest.TempPathFactory,
                 fake: FakeAnthropic) -> Iterator[World]:
    """One gateway (and warm engine) for the module's tests: building the engine takes
    seconds.  Each test installs Claude Code's settings in a folder of its own."""
    world = World(tmp_path_factory.mktemp("gateway"), fake.url)
    try:
        world.start_gateway()
        yield world
    finally:
        world.close()


class Rig:
    """One test's Claude Code: its settings folder (installed by redactor), its project
    and state folders, the world (home, gateway) it runs in, and the fake model."""

    def __init__(self, tmp_path: Path, fake: FakeAnthropic, world: World) -> None:
        self.tmp = tmp_path
        self.fake = fake
        self.world = world
        self.project = tmp_path / "project"
        self.project.mkdir()
        # Claude Code's folder lies outside the home: redactor takes a folder holding
        # ".claude" below the account's real home for a project, and reads a user file
        # inside a project as a project file (tighten-only), which may not set
        # gateway.port.  A real ~/.claude is in the account's home, never a project.
        self.claude_dir = tmp_path / "claude-config"
        self.claude_dir.mkdir()
        self.settings_file = self.claude_dir / "settings.json"
        self.own: World | None = None

    @property
    def env(self) -> dict[str, str]:
        env = dict(self.world.env)
        env.update(offline_env(self.tmp, self.fake.url))
        del env["ANTHROPIC_BASE_URL"]  # the installed settings point at the gateway
        env.update({"HOME": self.world.env["HOME"], "CLAUDE_CONFIG_DIR": str(self.claude_dir)})
        return env

    def world_of_its_own(self) -> World:
        """A home and runtime folder of this test's (no gateway runs there yet)."""
        assert self.own is None
        self.own = self.world = World(self.tmp / "own", self.fake.url)
        return self.own

    def install(self, *extra: str) -> dict[str, Any]:
        """``redactor install claude --user --gateway``; the settings it wrote."""
        done = subprocess.run(
            [sys.executable, "-m", "redactor", "install", "claude", "--user", "--gateway",
             "--claude-bin", str(claude()), *extra],
            env=self.env, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        settings: dict[str, Any] = json.loads(self.settings_file.read_text(encoding="utf-8"))
        return settings

    def no_restart(self) -> None:
        """Drop the SessionStart hook, which would start a stopped gateway again."""
        settings = json.loads(self.settings_file.read_text(encoding="utf-8"))
        del settings["hooks"]["SessionStart"]
        self.settings_file.write_text(json.dumps(settings, indent=2), encoding="utf-8")

    # ------------------------------------------------------------------ runs

    def run(self, prompt: str, *, resume: str | None = None, allowed: str = "Bash Read",
            extra_env: dict[str, str] | None = None) -> dict[str, Any]:
        """``claude -p`` once in the project; its JSON result."""
        command = [str(claude()), "-p", prompt, "--output-format", "json",
                   "--allowedTools", allowed, "--max-turns", "4"]
        if resume is not None:
            command += ["--resume", resume]
        done = subprocess.run(command, cwd=self.project, env={**self.env, **(extra_env or {})},
                              capture_output=True, text=True, timeout=RUN_TIMEOUT,
                              stdin=subprocess.DEVNULL, check=False)
        try:
            result: dict[str, Any] = json.loads(done.stdout)
        except ValueError:
            result = {"unparsed_stdout": done.stdout[-2000:], "stderr": done.stderr[-2000:]}
        return result

    # ------------------------------------------------------------------ what arrived

    def sent(self) -> str:
        """Every model call the fake received, as one text (for "absent" checks)."""
        return "\n".join(raw.decode("utf-8", "replace") for raw in self.fake.messages_raw)

    def main_posts(self) -> list[tuple[dict[str, Any], bytes]]:
        """The model calls of the agent loop (those offering tools), parsed and raw."""
        return [(body, raw) for body, raw in zip(self.fake.messages_posts,
                                                 self.fake.messages_raw, strict=True)
                if body.get("tools")]


@pytest.fixture
def rig(tmp_path: Path, fake: FakeAnthropic, shared_world: World) -> Iterator[Rig]:
    with fake._lock:
        fake.requests.clear()
    fake.script = Script(tool=None, final_text=FINAL)
    one = Rig(tmp_path, fake, shared_world)
    try:
        yield one
    finally:
        try:
            if one.own is not None:
                one.own.close()
        finally:
            with fake._lock:
                _RECEIVED.extend(r.raw for r in fake.requests)


def assert_clean(text: str) -> None:
    for value in PLANTED:
        assert value not in text


def json_parts(text: str) -> list[tuple[str | None, str]]:
    """The members of a JSON object (key, raw text) or the items of an array (None, raw
    text), exactly as they are written."""
    decoder = json.JSONDecoder()
    space = re.compile(r"[ \t\n\r]*")
    index = space.match(text, 0).end()  # type: ignore[union-attr]
    closing = {"{": "}", "[": "]"}[text[index]]
    index += 1
    parts: list[tuple[str | None, str]] = []
    while True:
        index = space.match(text, index).end()  # type: ignore[union-attr]
        if text[index] == closing:
            return parts
        key = None
        if closing == "}":
            key, index = decoder.raw_decode(text, index)
            index = space.match(text, index).end()  # type: ignore[union-attr]
            assert text[index] == ":"
            index = space.match(text, index + 1).end()  # type: ignore[union-attr]
        _, end = decoder.raw_decode(text, index)
        parts.append((key, text[index:end]))
        index = space.match(text, end).end()  # type: ignore[union-attr]
        if text[index] == ",":
            index += 1


# ---------------------------------------------------------------------- tests


def test_a_prompt_with_personal_data_arrives_redacted_and_is_answered(rig: Rig) -> None:
    rig.install()
    result = rig.run(f"Cadastre a cliente {NAME}, CPF {CPF}, e confirme.")
    posts = rig.main_posts()
    assert posts, result
    sent = rig.sent()
    assert_clean(sent)
    prompt_text = json.dumps(posts[0][0]["messages"], ensure_ascii=False)
    assert "Cadastre a cliente [NOME], CPF [CPF], e confirme." in prompt_text
    # Not blocked: the model's answer came back, and the hook told the model why it
    # sees placeholders.
    assert result.get("result") == FINAL
    assert "o gateway local do redactor os troca por marcadores" in prompt_text
    # Claude Code's own instructions reach the model as written: no product name of
    # its system prompt or tool descriptions is taken for a person or a user name.
    harness = json.dumps([posts[0][0].get("system"), posts[0][0].get("tools")],
                         ensure_ascii=False)
    assert "Claude Code" in harness
    assert "[NOME]" not in harness and "[USERNAME]" not in harness


def test_an_attached_file_arrives_redacted(rig: Rig) -> None:
    rig.install()
    (rig.project / "dados.txt").write_text(
        f"Relatorio PLANALTO-7731\ncliente CPF {CPF}\nfornecedor CNPJ {CNPJ}\n",
        encoding="utf-8")
    rig.run("resuma @dados.txt")
    sent = rig.sent()
    assert rig.main_posts()
    assert "PLANALTO-7731" in sent  # the file's content did reach the model
    assert "[CPF]" in sent and "[CNPJ]" in sent
    assert_clean(sent)


def test_the_output_of_a_failing_command_arrives_redacted(rig: Rig) -> None:
    # The CPF comes from a file, so the command itself holds none (a CPF in the command
    # would be rewritten by the PreToolUse hook before it runs).  Without wrap_bash the
    # failure hook cannot rewrite the output; the gateway does, on the wire.
    rig.install()
    (rig.project / "cliente.txt").write_text(f"cliente {CPF}\n", encoding="utf-8")
    rig.fake.script = Script("Bash", {"command": "cat cliente.txt; exit 3",
                                      "description": "Show the customer", "timeout": 60000},
                             final_text=FINAL)
    rig.run("mostre o cliente")
    results = rig.fake.tool_results()
    got = json.dumps(results, ensure_ascii=False)
    assert results and results[0].get("is_error") is True
    assert "cliente [CPF]" in got and "Exit code 3" in got
    assert_clean(rig.sent())


def test_a_resumed_session_sends_its_history_redacted(rig: Rig) -> None:
    rig.install()
    (rig.project / "cliente.txt").write_text(f"cliente {CPF} CNPJ {CNPJ}\n", encoding="utf-8")
    rig.fake.script = Script("Bash", {"command": "cat cliente.txt",
                                      "description": "Show the customer", "timeout": 60000},
                             final_text=FINAL)
    first = rig.run(f"mostre o cliente {NAME}, CPF {CPF}")
    session = first.get("session_id")
    assert isinstance(session, str), first
    before = len(rig.fake.messages_raw)
    rig.fake.script = Script(tool=None, final_text=FINAL)
    second = rig.run("e agora, o que falta?", resume=session)
    resumed = rig.fake.messages_raw[before:]
    assert resumed, second
    history = json.loads(resumed[-1])["messages"]
    text = json.dumps(history, ensure_ascii=False)
    # The history went: the first prompt and the tool's output, redacted.
    assert "mostre o cliente [NOME], CPF [CPF]" in text
    assert "cliente [CPF] CNPJ [CNPJ]" in text
    assert "e agora, o que falta?" in text
    assert_clean(rig.sent())
    assert second.get("result") == FINAL


def test_the_streamed_answer_reaches_the_user_intact(rig: Rig) -> None:
    rig.install()
    result = rig.run("diga que terminou")
    assert rig.main_posts()
    assert result.get("result") == FINAL
    assert result.get("is_error") is False


def test_thinking_blocks_come_back_byte_identical(rig: Rig) -> None:
    rig.install()
    thought = "Preciso listar os arquivos — verificação rápida, sem dados pessoais ✓."
    signature = "EqQBCkYIBRgCKkDf4+sinal/de+teste==" + "A" * 40
    rig.fake.script = Script("Bash", {"command": "ls", "description": "List",
                                      "timeout": 60000},
                             final_text=FINAL, thinking=(thought, signature))
    # A CPF in the prompt makes the gateway rewrite the request around the block.
    rig.run(f"liste os arquivos do cliente CPF {CPF}")
    posts = rig.main_posts()
    assert len(posts) >= 2
    body, raw = posts[1]
    sent_back = [block for message in body["messages"] if message["role"] == "assistant"
                 and isinstance(message["content"], list)
                 for block in message["content"] if block.get("type") == "thinking"]
    assert sent_back == [{"type": "thinking", "thinking": thought, "signature": signature}]
    # Byte for byte: the block is in the body the fake received exactly as Claude Code
    # writes it (JSON.stringify: UTF-8, no spaces; Python's compact UTF-8 dump is the
    # same text), although the gateway rewrote the request around it.
    assert json.dumps(sent_back[0], ensure_ascii=False,
                      separators=(",", ":")).encode("utf-8") in raw
    assert "[CPF]" in raw.decode("utf-8")
    assert_clean(rig.sent())


def test_identical_turns_send_identical_redacted_prefixes(rig: Rig) -> None:
    rig.install()
    rig.fake.script = Script("Bash", {"command": "ls", "description": "List",
                                      "timeout": 60000}, final_text=FINAL)
    prompt = f"liste os arquivos da cliente {NAME}, CPF {CPF}"
    rig.run(prompt)
    rig.run(prompt)
    posts = rig.main_posts()
    assert len(posts) == 4  # per run: the tool call, then the answer
    prefixes = [prefix(raw) for _, raw in posts]
    # Within a run, the second request starts with the first one's bytes: the prompt
    # cache's prefix survives redaction.
    assert prefixes[1] == prefixes[0]
    assert prefixes[3] == prefixes[2]
    # The same prompt, run again: the same redacted first user message, byte for byte.
    assert prefixes[2]["first"] == prefixes[0]["first"]
    assert "liste os arquivos da cliente [NOME], CPF [CPF]" in prefixes[0]["first"]
    assert_clean(rig.sent())


def prefix(raw: bytes) -> dict[str, str]:
    """The raw JSON of a request's system, tools and first message.  Claude Code moves
    the ``cache_control`` mark to the newest user message (2.1.197 puts one on the first
    message while it is the newest), so that mark is taken out of the first message."""
    members = dict(json_parts(raw.decode("utf-8")))
    first = json_parts(members["messages"])[0][1]
    return {"system": members["system"], "tools": members["tools"],
            "first": re.sub(r',"cache_control":\{[^{}]*\}', "", first)}


def test_a_gateway_fault_fails_the_request_and_nothing_goes_upstream(rig: Rig) -> None:
    world = rig.world_of_its_own()
    rig.install()
    world.start_gateway(extra_env={"REDACTOR_TEST_FAULT": "gateway"})
    result = rig.run(f"cadastre o CPF {CPF}")
    assert rig.fake.messages_posts == []
    assert result.get("is_error") is True
    assert "redactor gateway" in str(result.get("result"))


def test_http_hooks_answer_like_command_hooks_where_claude_blocks_on_failure(
        rig: Rig) -> None:
    settings = rig.install("--http-hooks")
    handlers = [h for event, groups in settings["hooks"].items() if event != "SessionStart"
                for g in groups for h in g["hooks"]]
    assert len(handlers) == 4
    (rig.project / "cliente.txt").write_text(f"cliente {CPF}\n", encoding="utf-8")
    rig.fake.script = Script("Bash", {"command": f"echo 'CPF {CPF}' > out.txt; cat cliente.txt",
                                      "description": "Save and show", "timeout": 60000},
                             final_text=FINAL)
    rig.run("salve e mostre o cliente")
    if release() < HTTP_HOOKS_SINCE:
        # No onFailure "block" there: the install falls back to command hooks.
        assert all(h["type"] == "command" for h in handlers)
        assert "REDACTOR_GATEWAY_TOKEN" not in settings["env"]
    else:
        assert all(h["type"] == "http" and h["onFailure"] == "block" for h in handlers)
        assert all(h["url"].startswith(f"http://127.0.0.1:{rig.world.port}/hooks/claude/")
                   for h in handlers)
    # Either way the PreToolUse hook rewrote the command, and the output went redacted.
    assert (rig.project / "out.txt").read_text(encoding="utf-8") == "CPF [CPF]\n"
    got = json.dumps(rig.fake.tool_results(), ensure_ascii=False)
    assert "cliente [CPF]" in got
    assert_clean(rig.sent())
    if release() < HTTP_HOOKS_SINCE:
        return
    # A home whose gateway is down and that nothing restarts (no SessionStart hook):
    # the HTTP hook fails, and onFailure blocks the prompt.
    rig.world_of_its_own()
    rig.install("--http-hooks")
    rig.no_restart()
    before = len(rig.fake.requests)
    result = rig.run(f"cadastre o CPF {CPF}", extra_env={"CLAUDE_CODE_MAX_RETRIES": "0"})
    assert rig.fake.requests[before:] == []
    assert "onFailure" in json.dumps(result, ensure_ascii=False)


def test_a_stopped_gateway_blocks_the_prompt_with_command_hooks(rig: Rig) -> None:
    world = rig.world_of_its_own()
    rig.install()
    world.start_gateway()
    world.stop_gateway()
    rig.no_restart()
    result = rig.run(f"cadastre o CPF {CPF}", extra_env={"CLAUDE_CODE_MAX_RETRIES": "0"})
    assert rig.fake.requests == []
    assert "redactor gateway start" in json.dumps(result, ensure_ascii=False)


def test_with_pseudonyms_the_person_sees_the_value_and_the_model_only_tokens(rig: Rig) -> None:
    # A gateway of this test's own, with [pseudonyms] in the user's configuration.
    world = rig.world_of_its_own()
    config = world.home / ".config" / "redactor" / "config.toml"
    config.write_text(config.read_text(encoding="utf-8")
                      + "[pseudonyms]\nenabled = true\n", encoding="utf-8")
    rig.install()
    world.start_gateway()
    token_re = re.compile(r"\[CPF:[0-9a-f]{16}\]")

    def echo(body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        # The model repeats the token it was given (a model can only repeat what it saw).
        found = token_re.findall(json.dumps(body.get("messages"), ensure_ascii=False))
        text = f"A cliente {found[0] if found else '[CPF:none]'} está cadastrada."
        return [{"type": "text", "text": text}], "end_turn"

    rig.fake.reply_blocks = echo  # type: ignore[method-assign]
    result = rig.run(f"A cliente de CPF {CPF} está cadastrada?")
    posts = rig.main_posts()
    assert posts, result
    assert_clean(rig.sent())
    sent_tokens = token_re.findall(json.dumps(posts[0][0]["messages"], ensure_ascii=False))
    assert sent_tokens, "the prompt's CPF reached the model as a token"
    # The person at the keyboard sees the real value in the answer...
    assert result.get("result") == f"A cliente {CPF} está cadastrada.", result
    # ...for the session Claude Code names in its header, which is its hooks' session.
    sessions = {r.headers.get("x-claude-code-session-id") for r in rig.fake.requests
                if r.method == "POST"}
    assert sessions == {result.get("session_id")}, sessions
