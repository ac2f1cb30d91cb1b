"""The gateway's pseudonym work for one request, on a worker thread (the vault is a file
with a lock: never on the event loop).

- Before redaction (:meth:`Display.shown_before`): the values shown to this session's
  person in place of tokens, so the history's assistant text gets those tokens back.
- After it (:meth:`Display.settle`): the values written as tokens go to the vault,
  issued to the session; tokens of cached blocks are granted to it; and the tokens of
  the request that this session may see as values are resolved, for the answer.
- After the answer (:meth:`Display.shown_after`): which tokens were shown.

The session is Claude Code's ``X-Claude-Code-Session-Id`` header.  Anyone holding the
gateway's token could send another session's id, so the header scopes only what the
person sees; whether a tool gets a value is decided by the hooks, on the session id
Claude Code gives them.  Showing values puts them into Claude Code's transcript on
disk, as if the person had typed them (docs/pseudonyms.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from redactor.config import Settings
    from redactor.gateway.wire import WireResult

__all__ = ["DISPLAY_CALL", "Display"]

#: The call id under which the vault keeps a session's shown tokens.
DISPLAY_CALL: Final = "gateway-display"
_SESSION: Final = re.compile(r"[A-Za-z0-9_.:-]{1,128}")


class Display:
    def __init__(self, settings: Settings, env: Mapping[str, str],
                 session: str | None) -> None:
        self.settings = settings
        self.env = env
        self.session = session if session is not None and _SESSION.fullmatch(session) \
            else None
        self.display = settings.pseudonym_display and self.session is not None

    def shown_before(self) -> dict[str, str] | None:
        """value → token of what this session's person was shown."""
        if not self.display or self.session is None:
            return None
        from redactor.config import ENTITY_LABELS
        from redactor.pseudonyms.record import open_vault

        shown: dict[str, str] = {}
        with open_vault(self.settings, self.env) as vault:
            for digest in vault.call_tokens(self.session, DISPLAY_CALL):
                entry = vault.get(digest, session=self.session)
                if entry is not None and entry.value.strip():
                    label = ENTITY_LABELS.get(entry.entity, entry.entity.removeprefix("BR_"))
                    shown[entry.value] = f"[{label}:{digest}]"
        return shown or None

    def settle(self, result: WireResult) -> dict[str, str] | None:
        """File the request's tokens; token text → value of those this session's person
        may see (None without display)."""
        from redactor.config import ENTITY_LABELS
        from redactor.pseudonyms.record import open_vault, record
        from redactor.pseudonyms.tokens import find_tokens

        with open_vault(self.settings, self.env) as vault:
            record(vault, result.issued, session=self.session,
                   expiry_days=self.settings.vault_expiry_days)
            if self.session is not None:
                for digest in result.cached_tokens:
                    vault.grant(digest, self.session)
            if not self.display or self.session is None:
                return None
            values: dict[str, str] = {}
            text = result.body.decode("utf-8", "replace")
            for token in find_tokens(text):
                if token.text in values or token.escaped:
                    continue
                if not vault.issued_in(token.digest, self.session):
                    continue
                entry = vault.get(token.digest, session=self.session)
                label = None if entry is None else ENTITY_LABELS.get(
                    entry.entity, entry.entity.removeprefix("BR_"))
                if entry is not None and label == token.label:
                    values[token.text] = entry.value
        return values

    def shown_after(self, shown: Mapping[str, str]) -> None:
        if self.session is None or not shown:
            return
        from redactor.pseudonyms.record import open_vault
        from redactor.pseudonyms.tokens import find_tokens

        digests = [t.digest for text in shown for t in find_tokens(text)]
        with open_vault(self.settings, self.env) as vault:
            vault.record_call(self.session, DISPLAY_CALL, digests, lasting=True)
