"""Every deadline of a hook call, in one place: host, client, server, worker.

A hook call crosses four processes, and each gives up a little before the one that
waits for it, so that the waiting one still has time to answer safely:

1. the host (Claude Code, Codex, Gemini CLI, Hermes' shell hooks) waits
   :data:`HOST_TIMEOUT` for the hook command, then lets the event through;
2. the light client waits :data:`ANSWER_TIMEOUT` for the server, keeps
   :data:`CLIENT_RESERVE` for its own safe answer and leaves :data:`ANSWER_MARGIN`
   before the host's timeout;
3. the server's dispatcher waits for its worker the caller's budget plus
   :data:`GRACE`, at most :data:`MAX_WAIT`, which ends :data:`SERVER_MARGIN` before the
   client gives up (:func:`dispatcher_wait`);
4. the worker's own timer ends :data:`WORKER_RESERVE` before that
   (:func:`worker_wait`), and the work itself has ``[hooks] time_budget_seconds``, at
   most :data:`MAX_TIME_BUDGET` (the Hermes plugin's callbacks too).

tests/hooks/test_bounded_answer.py checks that every step leaves its margin.

Import-light on purpose (no import at all): the hook client loads it on every call.
"""

#: The timeout ``redactor install`` (and the Claude Code plugin's hooks.json) gives every
#: host's hook, in seconds.  A host lets the event through when it is reached.
HOST_TIMEOUT = 30.0
#: The whole answer is written at least this long before the host's timeout.
ANSWER_MARGIN = 5.0
#: What the client keeps, after giving up on the server, for its own safe answer (a
#: full import and a bounded answer; see redactor.hosts.core.withheld).
CLIENT_RESERVE = 3.0
#: Seconds from the client's start to the server's answer (or to the end of an answer
#: computed in process): past it the client answers fail-closed by itself.
ANSWER_TIMEOUT = HOST_TIMEOUT - ANSWER_MARGIN - CLIENT_RESERVE
#: The client's wait for the server to accept the connection.
CONNECT_TIMEOUT = 2.0
#: A server that closed without answering (it was stopping, or died) within this many
#: seconds leaves time to answer in process; later, the event fails closed instead,
#: so that the host's own timeout can never be reached.
RETRY_WINDOW = 5.0
#: The dispatcher stops waiting for a worker this long before the client gives up, so
#: that the caller gets the server's fail-closed answer rather than the client's own.
SERVER_MARGIN = 2.0
#: The longest wait for a worker's answer.
MAX_WAIT = ANSWER_TIMEOUT - SERVER_MARGIN
#: Seconds a worker may take beyond the caller's time budget before it is killed: its
#: own timer normally answers (fail closed) at the budget.
GRACE = 1.0
#: A worker's own timer ends this long before the dispatcher stops waiting for it, so
#: that the worker's safe answer (bounded) arrives and the worker is not killed.
WORKER_RESERVE = 0.5
#: The longest ``[hooks] time_budget_seconds`` a configuration may set: the work of a
#: hook call (or of a Hermes plugin callback) before it fails closed.
MAX_TIME_BUDGET = 20.0
#: The wait for the server's answer to ``redactor serve --status`` / ``--stop``.
CONTROL_TIMEOUT = 5.0
#: The server's wait for a client's whole request, between two reads.
READ_TIMEOUT = 30.0
#: Hermes' shell hooks, Claude Code and Codex take seconds; Gemini CLI milliseconds.
HOST_TIMEOUT_SECONDS = int(HOST_TIMEOUT)
HOST_TIMEOUT_MS = int(HOST_TIMEOUT * 1000)


def dispatcher_wait(budget: float) -> float:
    """Seconds the dispatcher waits for a worker, from the request's arrival, for a
    caller whose time budget is ``budget``."""
    return min(budget + GRACE, MAX_WAIT)


def worker_wait(budget: float) -> float:
    """Seconds from the request's arrival at which the worker's own timer ends."""
    return dispatcher_wait(budget) - WORKER_RESERVE
