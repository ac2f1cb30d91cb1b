"""Pseudonyms in the hooks: what a hook does with tokens around one tool call.

- Before the call (:func:`rehydrate_call`): tokens in the (already redacted) input turn
  into values under the policy of redactor.pseudonyms.rehydrate, resolving only tokens
  this session was issued; the call id is recorded with the tokens it got.
- After it (:func:`tokens_again`): the exact values put into that call become their
  tokens again before the detectors run, so the model gets the same tokens back even
  where a detector would miss a value; :func:`record_issued` then files what the
  redaction wrote as tokens under this session.
- A prompt (:func:`grant_typed`): tokens the person typed may resolve in this session.

Every step opens the vault only when there is a token or an issued value; none is
imported on the hook path otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from redactor.pseudonyms.rehydrate import CallContext, Rehydration, has_tokens, rehydrate
from redactor.pseudonyms.tokens import Token, find_tokens

if TYPE_CHECKING:
    from redactor.config import Settings
    from redactor.pseudonyms.vault import Vault
    from redactor.results import Issued

__all__ = ["exact_pairs", "exact_swap", "grant_typed", "record_issued", "rehydrate_call",
           "remember_call", "session_of", "tokens_again"]

#: What a host's session or call id may look like (they are filed, never interpreted).
_ID: Final = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
#: The most distinct values one call turns back into tokens by exact match.
MAX_EXACT_VALUES: Final = 256
#: The most values shown by the gateway that a session's outputs turn back into tokens.
MAX_SHOWN_VALUES: Final = 4096
#: How long a hook waits for the vault's lock: well inside its time budget.
HOOK_BUSY_SECONDS: Final = 2.0


def session_of(payload: Mapping[str, Any]) -> str | None:
    session = payload.get("session_id")
    return session if isinstance(session, str) and _ID.fullmatch(session) else None


def call_id(payload: Mapping[str, Any]) -> str | None:
    """The id a call's tokens are filed under (see :func:`remember_call`)."""
    return _call_of(payload)


def _call_of(payload: Mapping[str, Any], tool_input: Any = None) -> str | None:
    """The call's id: the host's (Claude Code's ``tool_use_id``), else a digest of the
    tool and the input that runs, which the output's event repeats (Gemini CLI has no
    call id: its AfterTool carries the input)."""
    call = payload.get("tool_use_id")
    if isinstance(call, str) and _ID.fullmatch(call):
        return call
    name = payload.get("tool_name")
    ran = payload.get("tool_input") if tool_input is None else tool_input
    if not isinstance(name, str) or not isinstance(ran, dict):
        return None
    import hashlib
    import json

    text = json.dumps([name, ran], sort_keys=True, ensure_ascii=True, default=str)
    return "in-" + hashlib.sha256(text.encode("ascii")).hexdigest()[:40]


def _vault(settings: Settings, env: Mapping[str, str]) -> Vault:
    from redactor.pseudonyms.record import open_vault

    return open_vault(settings, env, busy_timeout=HOOK_BUSY_SECONDS)


def _label(entity: str) -> str:
    from redactor.config import ENTITY_LABELS

    return ENTITY_LABELS.get(entity, entity.removeprefix("BR_"))


def rehydrate_call(host: str, tool_name: str, tool_input: dict[str, Any],
                   payload: Mapping[str, Any], *, settings: Settings,
                   env: Mapping[str, str]) -> Rehydration:
    """The policy's answer for one call, tokens resolved in the payload's session.
    ``tool_input`` is the redacted input; the payload's ``tool_input``, what the model
    wrote, says which tokens are the model's (redactor.pseudonyms.rehydrate)."""
    written = payload.get("tool_input")
    if not settings.pseudonyms or not has_tokens(written if written is not None
                                                 else tool_input):
        return Rehydration("none")
    cwd_text = payload.get("cwd")
    cwd = Path(cwd_text) if isinstance(cwd_text, str) and cwd_text.startswith("/") else None
    from redactor.config import project_folder

    project = project_folder(cwd) if cwd is not None else None
    session = session_of(payload)
    context = CallContext(host, session, _call_of(payload), cwd, project)
    with _vault(settings, env) as vault:

        def resolve(token: Token) -> str | None:
            # A 12-hex token of the older hash operator is resolved by the person only
            # (redactor vault show): as a prefix of a new token it would be a partial one.
            if session is None or token.legacy:
                return None
            entry = vault.get(token.digest, session=session)
            if entry is None or _label(entry.entity) != token.label:
                return None
            return entry.value if vault.issued_in(token.digest, session) else None

        return rehydrate(tool_name, tool_input, context, resolve,
                         mcp_allow=settings.pseudonym_mcp_allow, written=written)


def remember_call(payload: Mapping[str, Any], final_input: dict[str, Any],
                  digests: Iterable[str], *, settings: Settings,
                  env: Mapping[str, str]) -> str | None:
    """File the tokens a call got values for, under the call's id and under a digest of
    the input that finally runs (wrapped command included: a host without call ids pairs
    the output by it); the id a wrapped command's own redaction names (None: none)."""
    session = session_of(payload)
    call = _call_of(payload)
    final = _call_of({"tool_name": payload.get("tool_name"), "tool_input": final_input})
    if session is None:
        return None
    wanted = list(digests)
    with _vault(settings, env) as vault:
        for one in dict.fromkeys(c for c in (call, final) if c is not None):
            vault.record_call(session, one, wanted)
    return call


def exact_pairs(session: str, call: str, settings: Settings,
                env: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """(value, token) of what a call got values for: the value written as the same token
    again in its output, before the detectors (the wrapped command's pipe uses it)."""
    if not (_ID.fullmatch(session) and _ID.fullmatch(call)):
        return ()
    pairs: dict[str, str] = {}
    with _vault(settings, env) as vault:
        for digest in vault.call_tokens(session, call)[:MAX_EXACT_VALUES]:
            entry = vault.get(digest, session=session)
            if entry is not None and entry.value.strip():
                pairs[entry.value] = f"[{_label(entry.entity)}:{digest}]"
    return tuple(pairs.items())


def exact_swap(pairs: Iterable[tuple[str, str]]) -> Callable[[str], str] | None:
    """A function writing each value of ``pairs`` as its token (longest first)."""
    table = dict(pairs)
    if not table:
        return None
    pattern = re.compile("|".join(re.escape(v) for v in sorted(table, key=len, reverse=True)))
    return lambda text: pattern.sub(lambda m: table[m.group()], text)


def tokens_again(value: Any, payload: Mapping[str, Any], settings: Settings,
                 env: Mapping[str, str]) -> Any:
    """``value`` (a tool's output) with the exact values rehydrated into this call, and
    those the gateway showed this session's person, written as their tokens again,
    longest first; ``value`` itself when there are none.  The shown ones matter: they
    are in the session's transcript, which a tool can read."""
    session, call = session_of(payload), _call_of(payload)
    if not settings.pseudonyms or session is None:
        return value
    from redactor.gateway.display import DISPLAY_CALL

    with _vault(settings, env) as vault:
        digests = vault.call_tokens(session, call)[:MAX_EXACT_VALUES] if call else []
        if settings.pseudonym_display:
            digests += vault.call_tokens(session, DISPLAY_CALL)[:MAX_SHOWN_VALUES]
        if not digests:
            return value
        pairs: dict[str, str] = {}
        for digest in digests:
            entry = vault.get(digest, session=session)
            if entry is not None and entry.value.strip():
                pairs[entry.value] = f"[{_label(entry.entity)}:{digest}]"
    if not pairs:
        return value
    pattern = re.compile("|".join(re.escape(v) for v in sorted(pairs, key=len, reverse=True)))

    def swap(text: str) -> str:
        return pattern.sub(lambda m: pairs[m.group()], text)

    return _map_strings(value, swap)


def _map_strings(value: Any, swap: Any) -> Any:
    if isinstance(value, str):
        return swap(value)
    if isinstance(value, list):
        return [_map_strings(item, swap) for item in value]
    if isinstance(value, dict):
        return {swap(k) if isinstance(k, str) else k: _map_strings(v, swap)
                for k, v in value.items()}
    return value


def record_issued(issued: Iterable[Issued], payload: Mapping[str, Any], settings: Settings,
                  env: Mapping[str, str]) -> None:
    """File what a redaction wrote as tokens, issued to the payload's session."""
    items = list(issued)
    if not items or not settings.pseudonyms or not settings.vault:
        return
    from redactor.pseudonyms.record import record

    with _vault(settings, env) as vault:
        record(vault, items, session=session_of(payload),
               expiry_days=settings.vault_expiry_days)


def grant_typed(prompt: str, payload: Mapping[str, Any], settings: Settings,
                env: Mapping[str, str]) -> None:
    """Tokens the person typed into a prompt may resolve in that session."""
    session = session_of(payload)
    if not settings.pseudonyms or session is None:
        return
    typed = find_tokens(prompt)
    if not typed:
        return
    with _vault(settings, env) as vault:
        for token in typed:
            vault.grant(token.digest, session)
