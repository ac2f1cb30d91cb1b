"""The safe answer to a call that ran out of time is itself bounded (issue 29, item 6).

A PostToolUse whose output holds hundreds of thousands of values once answered after
the host's timeout: the time budget ran out, and then the withheld copy walked every
value again, up to three times (worker, dispatcher, client).  Now the copy visits at
most ``WITHHELD_NODES`` values, a large event is not parsed again for the fallbacks'
answer, every deadline of the chain ends before the next one's, and the last one
leaves ``ANSWER_MARGIN`` seconds before the host's timeout.
"""

from __future__ import annotations

import json
import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from redactor import config, install, jsonio
from redactor.hosts import claude, core
from redactor.serve import protocol, server, worker

CPF = "529.982.247-25"
CPF_NUMBER = 52998224725
MARKER = "[withheld]"


def rows(count: int) -> list[dict[str, Any]]:
    return [{"id": i, "cpf": CPF, "conta": CPF_NUMBER, "ativo": True} for i in range(count)]


def post(response: Any) -> bytes:
    return json.dumps({"hook_event_name": "PostToolUse", "session_id": "s-1",
                       "tool_name": "mcp__db__query", "tool_input": {"sql": "select"},
                       "tool_response": response}).encode()


def test_a_withheld_array_keeps_the_shape_of_its_first_item_only() -> None:
    copy = core.withheld({"rows": rows(200_000), "total": 200_000, "type": "table"}, MARKER)
    assert copy == {"rows": [{"id": 0, "cpf": MARKER, "conta": 0, "ativo": True}],
                    "total": 200_000, "type": "table"}


def test_the_copy_keeps_the_nested_shape_a_host_checks() -> None:
    read = {"type": "text", "file": {"filePath": "/srv/clientes.txt", "content": f"x {CPF}",
                                     "numLines": 3, "startLine": 1, "totalLines": 3}}
    assert core.withheld(read, MARKER) == {
        "type": "text", "file": {"filePath": MARKER, "content": MARKER, "numLines": 3,
                                 "startLine": 1, "totalLines": 3}}


def test_keys_that_may_be_data_become_numbered_markers() -> None:
    copy = core.withheld({"52998224725": 1, "11144477735": 2, "stdout": "x"}, MARKER)
    assert copy == {MARKER: 1, f"{MARKER}#2": 2, "stdout": MARKER}


def test_more_values_than_the_bound_raise_and_claude_stops_the_turn() -> None:
    wide = {f"campo{i}": CPF for i in range(core.WITHHELD_NODES * 10)}
    with pytest.raises(core.TooLargeToWithhold):
        core.withheld(wide, MARKER)
    outcome = claude.ADAPTER.fail_closed("PostToolUse", {"tool_response": wide},
                                         core.HookTimeout("x"))
    assert outcome.stops_turn and outcome.exit_code == 2
    assert CPF not in outcome.stdout + outcome.stderr


def test_deep_nesting_collapses_into_the_marker() -> None:
    deep: Any = CPF
    for _ in range(jsonio.MAX_DEPTH * 3):
        deep = [deep]
    copy = core.withheld(deep, MARKER)
    assert CPF not in json.dumps(copy)
    assert MARKER in json.dumps(copy)


def test_the_worker_answer_is_small_whatever_the_output(tmp_path: Path) -> None:
    raw = post(rows(100_000))
    outcome = claude.ADAPTER.run(raw, env={"XDG_STATE_HOME": str(tmp_path)},
                                 deadline=time.monotonic() - 1)
    assert outcome.exit_code == 0
    answer = json.loads(outcome.stdout)["hookSpecificOutput"]["updatedToolOutput"]
    assert len(answer) == 1 and CPF not in outcome.stdout
    assert len(outcome.stdout) < 1000


def test_a_large_event_is_not_parsed_again_by_a_fallback(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    raw = post([*rows(20), "x" * core.FAIL_CLOSED_PARSE_BYTES])
    parsed: list[int] = []
    real = jsonio.loads
    monkeypatch.setattr(jsonio, "loads", lambda text: parsed.append(len(text)) or real(text))
    outcome = claude.ADAPTER.fail_closed_raw(raw, core.HookTimeout("x"),
                                             {"XDG_STATE_HOME": str(tmp_path)})
    assert parsed == []
    assert outcome.stops_turn and json.loads(outcome.stdout)["continue"] is False
    # A small one is still answered with the withheld copy, the session left open.
    small = claude.ADAPTER.fail_closed_raw(post(rows(1000)), core.HookTimeout("x"),
                                           {"XDG_STATE_HOME": str(tmp_path)})
    assert parsed and not small.stops_turn
    assert CPF not in small.stdout


def test_every_deadline_of_the_chain_ends_before_the_next_one() -> None:
    hooks_json = json.loads((Path(install.__file__).parents[1] / "plugins" / "redactor"
                             / "hooks" / "hooks.json").read_text(encoding="utf-8"))
    plugin = {entry["timeout"] for matchers in hooks_json["hooks"].values()
              for matcher in matchers for entry in matcher["hooks"]}
    installed = {install.CLAUDE_TIMEOUT, install.HERMES_SHELL_TIMEOUT, install.CODEX_TIMEOUT,
                 install.GEMINI_TIMEOUT_MS / 1000, *plugin}
    assert installed == {protocol.HOST_TIMEOUT}
    # The client: its answer (the server's, one computed in process, or its own safe
    # answer within CLIENT_RESERVE) is written ANSWER_MARGIN before the host gives up.
    assert (protocol.ANSWER_TIMEOUT + protocol.CLIENT_RESERVE
            <= protocol.HOST_TIMEOUT - protocol.ANSWER_MARGIN)
    assert protocol.ANSWER_MARGIN >= 5
    # The dispatcher gives up (and answers) before the client does; the worker's own
    # timer ends before the dispatcher stops waiting.
    assert server.MAX_WAIT < protocol.ANSWER_TIMEOUT
    assert server.WORKER_RESERVE > 0
    assert config.MAX_TIME_BUDGET <= protocol.ANSWER_TIMEOUT


def test_every_step_of_the_chain_leaves_a_margin_under_the_one_before() -> None:
    from redactor.hosts import hermes
    from redactor.serve import control, timeouts

    # Every user reads the one module.
    assert protocol.HOST_TIMEOUT == timeouts.HOST_TIMEOUT
    assert protocol.ANSWER_TIMEOUT == timeouts.ANSWER_TIMEOUT
    assert server.MAX_WAIT == timeouts.MAX_WAIT and server.GRACE == timeouts.GRACE
    assert server.WORKER_RESERVE == timeouts.WORKER_RESERVE
    assert config.MAX_TIME_BUDGET == timeouts.MAX_TIME_BUDGET
    assert core.MAX_TIME_BUDGET == hermes.MAX_TIME_BUDGET == timeouts.MAX_TIME_BUDGET
    assert control.CONTROL_TIMEOUT == timeouts.CONTROL_TIMEOUT
    # host > client (with its own safe answer) > dispatcher > worker > the work itself,
    # for every budget a configuration may set.
    client_ends = timeouts.ANSWER_TIMEOUT + timeouts.CLIENT_RESERVE
    assert client_ends + timeouts.ANSWER_MARGIN <= timeouts.HOST_TIMEOUT
    assert timeouts.MAX_WAIT + timeouts.SERVER_MARGIN <= timeouts.ANSWER_TIMEOUT
    assert timeouts.CONNECT_TIMEOUT < timeouts.ANSWER_TIMEOUT
    assert timeouts.RETRY_WINDOW < timeouts.ANSWER_TIMEOUT  # an answer in process still fits
    for tenths in range(5, int(timeouts.MAX_TIME_BUDGET * 10) + 1):
        budget = tenths / 10
        dispatcher = timeouts.dispatcher_wait(budget)
        worker_ends = timeouts.worker_wait(budget)
        assert dispatcher <= timeouts.MAX_WAIT < timeouts.ANSWER_TIMEOUT
        assert worker_ends <= dispatcher - timeouts.WORKER_RESERVE
        assert worker_ends > 0
        # The worker's timer normally ends the work at the budget itself, inside the
        # dispatcher's wait.
        assert min(budget, worker_ends) < dispatcher
    assert timeouts.MAX_TIME_BUDGET <= timeouts.MAX_WAIT


def test_the_worker_obeys_the_dispatchers_deadline_over_the_clients(tmp_path: Path) -> None:
    event = post({"stdout": f"cliente {CPF}", "stderr": "", "interrupted": False,
                  "isImage": False})
    # A client cannot lengthen the time: the dispatcher's line comes last and wins.
    request = protocol.build_request(event, environ={b"XDG_STATE_HOME": str(tmp_path).encode(),
                                                     b"XDG_CONFIG_HOME": str(tmp_path).encode()},
                                     cwd=str(tmp_path))
    head, _, payload = request.partition(b"\n\n")
    forged = head + b"\ndeadline 1e12\n\n" + payload
    timed = server.with_deadline(forged, time.monotonic() - 1)
    fields, _, body = server.parse_request(timed)
    assert float(fields["deadline"]) < time.monotonic() and body == payload
    code, out, err = protocol.parse_answer(worker.answer(timed))
    assert code == 0 and CPF.encode() not in out + err
    output = json.loads(out)["hookSpecificOutput"]["updatedToolOutput"]
    assert output["stdout"] != f"cliente {CPF}"


@pytest.fixture
def trickling_server() -> Iterator[str]:
    """A server that accepts a request and answers one byte every 0.2 s, 50 bytes."""
    folder = tempfile.mkdtemp(prefix="rdt", dir="/tmp")
    os.chmod(folder, 0o700)
    path = folder + "/engine.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    stop = threading.Event()

    def serve() -> None:
        try:
            connection, _ = listener.accept()
            with connection:
                while connection.recv(1 << 16):
                    pass
                for byte in b"RDX1 0 0 0\n".ljust(50, b"x"):
                    if stop.wait(0.2):
                        return
                    connection.sendall(bytes([byte]))
        except OSError:
            return  # the client gave up and closed its end: what the test wants

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield path
    finally:
        stop.set()
        listener.close()
        thread.join(timeout=5)
        os.unlink(path)
        os.rmdir(folder)


def test_a_trickling_server_cannot_hold_the_client_past_its_deadline(
        trickling_server: str) -> None:
    with pytest.raises(protocol.Broken):
        protocol.exchange(b"RDX1\n\n{}", path=trickling_server, timeout=1.0)


def test_the_copy_drops_identifier_floats_and_keys_that_may_be_data() -> None:
    """Review of item 6: an identifier written as a float, and keys such as an e-mail
    address, a person's name or a letters-only CNPJ, do not survive the withheld copy."""
    copy = core.withheld({"rows": [{"cpf": 52998224725.0, "cnpj": 11222333000181.0,
                                    "maria.souza@example.com": True, "Fulano_de_Tal": 1,
                                    "ABCDEFGHIJKL80": 2, "x" * 70: 3, "valor": 1.5}],
                          "isImage": False, "filePath": "/a"}, MARKER)
    text = json.dumps(copy)
    for value in ("52998224725", "11222333000181", "maria", "Fulano", "ABCDEFGHIJKL80",
                  "x" * 70):
        assert value not in text
    assert copy["rows"][0]["valor"] == 1.5 and copy["isImage"] is False
    assert copy["filePath"] == MARKER


def test_a_long_key_costs_no_backtracking() -> None:
    key = "a" * 200_000 + "!"
    assert core.withheld({key: 1}, MARKER) == {MARKER: 1}
