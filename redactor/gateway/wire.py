"""What the gateway does to one Anthropic Messages request body: redact every text the
client sends, leave everything else as it is, and refuse what it cannot read.

Nothing here imports the HTTP stack: :mod:`redactor.gateway.app` serves it, and tests
and benchmarks call it directly.

**Which fields.**  Redacted: ``system`` (a string or text blocks), every message's
content (a string, ``text`` blocks, ``tool_result`` content, strings or nested blocks,
``tool_use.input``, ``document`` blocks with a text source, their title and context),
and tool descriptions (the tool's and those inside its input schema).  Never touched:
``thinking`` and ``redacted_thinking`` blocks (the upstream checks their signatures),
``tool_reference`` blocks, results of the upstream's own server tools, ids,
``cache_control``, ``metadata`` and every model parameter.

**Binary content.**  Base64 images and PDFs (and images by URL or file id) cannot be
read.  With ``gateway.binary = "block"`` (the default) each becomes a short text block
saying it was withheld, so the turn goes on; ``"pass"`` forwards them unchanged.

**The same bytes every turn.**  Each block's redaction depends only on the block and on
the names learned from the blocks before it in the same request.  Every turn resends
the whole history in the same order, so a block sent once is redacted the same way in
every later turn: names learned later apply to new blocks and never rewrite old ones,
and the upstream's prompt cache sees a stable prefix.  A cache of block results (keyed
by the block's text and the names before it) makes a turn cost only its new blocks; it
is a speed-up only, since a miss computes the same result again.

**What goes upstream is what was read.**  The body is always re-serialised from the
parsed value (compact UTF-8, keys in their order, as Claude Code writes JSON), never
forwarded as it arrived, so no parser upstream can read a text this module did not: of
a key repeated in one object only the last value is read, redacted and sent.  orjson
reads and writes when it is installed (the ``gateway`` extra).  The standard library
takes the bodies orjson will not take (an escaped lone surrogate, a float out of range)
and reads a body again exactly when a value to redact holds a whole float of 2**63 or
more (orjson rounds an integer beyond 64 bits; elsewhere, in a model parameter, the
double is what Claude Code itself reads).  The bytes must be strict UTF-8.

**Refusals.**  A body that is not a JSON object of the Messages shape (numbers beyond a
float's range included), a content block of an unknown type, or a top-level field that
is not a known parameter and could hold text: :class:`Refused`, and nothing goes
upstream.  An unknown field whose values all look like enumeration values or ids is
passed, redacted as JSON (an id can be a CPF).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from redactor.errors import RedactorError
from redactor.jsonio import TooDeep
from redactor.results import Issued

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - the gateway extra installs it
    _orjson = None  # type: ignore[assignment]

__all__ = ["BINARY_MODES", "KNOWN_PARAMETERS", "BlockCache", "NotCached", "Refused",
           "RequestRedactor", "WireResult"]

BINARY_MODES: Final = ("block", "pass")

#: Top-level fields of a Messages request that carry no text of the user's: passed on.
KNOWN_PARAMETERS: Final = frozenset({
    "model", "max_tokens", "metadata", "stream", "temperature", "top_p", "top_k",
    "stop_sequences", "tool_choice", "thinking", "context_management", "output_config",
    "service_tier", "container", "mcp_servers", "betas", "inference_geo", "output_format",
    "speed", "effort",
})
#: Top-level fields redacted here.
_TEXT_FIELDS: Final = frozenset({"messages", "system", "tools"})
#: An unknown top-level field is passed only when every string in it looks like an
#: enumeration value or an id (no spaces, short): such a field cannot hold prose.
_ENUM_LIKE: Final = re.compile(r"[A-Za-z0-9_.:/@+-]{0,64}")

#: Blocks that come from the upstream itself (its server tools) or that the upstream
#: verifies byte for byte: forwarded unchanged.
_UNTOUCHED_BLOCKS: Final = frozenset({
    "thinking", "redacted_thinking", "tool_reference", "web_search_tool_result",
    "web_fetch_tool_result", "code_execution_tool_result", "bash_code_execution_tool_result",
    "text_editor_code_execution_tool_result", "tool_search_tool_result",
    "mcp_tool_result", "container_upload",
})
#: Blocks whose ``input`` is the model's own arguments (in the history).
_TOOL_CALLS: Final = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})


class Refused(RedactorError):
    """A request the gateway does not send upstream.  The message names a field, a block
    type or an error class, never a value."""

    exit_code = 3

    def __init__(self, message: str, *, status: int = 400,
                 error_type: str = "invalid_request_error") -> None:
        super().__init__(message)
        self.status = status
        self.error_type = error_type


class NotCached(Exception):
    """A block of the body is not in the cache (``redact_body(cached_only=True)``)."""


@dataclass(slots=True)
class WireResult:
    """The body to send upstream (always re-serialised), whether redaction changed or
    withheld anything in it, and counts."""

    body: bytes
    changed: bool
    entities: tuple[str, ...] = ()
    blocks: int = 0
    computed: int = 0
    withheld_binary: int = 0
    #: With pseudonyms: the values this request wrote as tokens (for the vault, never
    #: shown), and the digests of the tokens its cached blocks hold (already there).
    issued: tuple[Issued, ...] = field(default=(), repr=False)
    cached_tokens: tuple[str, ...] = ()


@dataclass(slots=True)
class _Piece:
    """One text of a block to redact: ``kind`` is "text" (a string) or "json" (a value),
    held at ``holder[key]`` (a binary block's piece: the block itself, key None)."""

    kind: Literal["text", "json"]
    value: Any
    holder: dict[str, Any]
    key: str | None


@dataclass(slots=True)
class _Done:
    """A block's redacted pieces, what they found, and the names they taught."""

    values: tuple[Any, ...]
    entities: tuple[str, ...]
    learned: tuple[frozenset[str], frozenset[str], frozenset[str]]
    size: int
    learns: bool = False
    #: The digests of the tokens the block's redaction wrote (no value is kept).
    tokens: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self.learns = any(self.learned)


class BlockCache:
    """Redacted blocks by key, least recently used out past ``max_bytes``: the memory its
    entries hold (keys, redacted texts and JSON values, names learned), not the size of
    the texts they stand for, since an unchanged block keeps no text and a redacted JSON
    value can be any size."""

    def __init__(self, max_bytes: int = 64 << 20) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[bytes, _Done] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: bytes) -> _Done | None:
        with self._lock:
            done = self._items.get(key)
            if done is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return done

    def put(self, key: bytes, done: _Done) -> None:
        size = done.size + _footprint(key)
        with self._lock:
            if key in self._items:
                return
            self._items[key] = done
            done.size = size
            self._bytes += size
            while self._bytes > self.max_bytes and self._items:
                _, old = self._items.popitem(last=False)
                self._bytes -= old.size

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"BlockCache({len(self._items)} blocks, {self._bytes} bytes)"


def _serialise(body: Any) -> bytes:
    """``body`` as Claude Code writes JSON: compact, UTF-8, keys in their order;
    ``\\uXXXX`` escapes everywhere only when a string holds a lone surrogate, which
    UTF-8 cannot carry."""
    if _orjson is not None:
        try:
            return _orjson.dumps(body)
        except _orjson.JSONEncodeError:  # a lone surrogate, an integer beyond 64 bits
            pass
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(body, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def _reject_constant(name: str) -> Any:
    raise Refused(f"redactor gateway: the request holds the non-JSON number {name}")


def _reject_infinite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Refused("redactor gateway: the request holds a number too large for a float")
    return value


def _parse(raw: bytes, *, exact: bool = False) -> dict[str, Any]:
    """The body's value: by orjson unless ``exact`` (or orjson refuses it), else by the
    standard library, which reads integers of any size and lone surrogates written as
    escapes.  The bytes must be strict UTF-8 either way: a surrogate written as raw bytes
    is refused, since two such halves, read apart here, would be one character to a
    parser upstream."""
    body: Any = None
    if _orjson is not None and not exact:
        try:
            body = _orjson.loads(raw)
        except _orjson.JSONDecodeError:
            body = None  # the standard library reads it, or says why not
    if body is None:
        try:
            body = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant,
                              parse_float=_reject_infinite)
        except Refused:
            raise
        except RecursionError:
            raise Refused("redactor gateway: the request is nested too deeply to read") \
                from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise Refused(f"redactor gateway: the request is not JSON "
                          f"({type(exc).__name__})") from None
    if not isinstance(body, dict):
        raise Refused("redactor gateway: the request is not a JSON object")
    return body


#: orjson reads an integer beyond 64 bits as the nearest double: such a float in a value
#: redacted as JSON may be an identifier whose last digits were lost, so the body is read
#: again exactly.
_INEXACT: Final = float(2 ** 63)


def _rounded(value: Any) -> bool:
    """Whether ``value`` holds a whole float of 2**63 or more (iteratively: a value orjson
    read can be 1024 levels deep)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float):
            if abs(item) >= _INEXACT and item.is_integer():
                return True
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _enum_like(value: Any, depth: int = 0) -> bool:
    if depth > 8:
        return False
    if value is None or isinstance(value, (bool, int, float)):
        return True
    if isinstance(value, str):
        return _ENUM_LIKE.fullmatch(value) is not None
    if isinstance(value, list):
        return all(_enum_like(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return all(_ENUM_LIKE.fullmatch(key) is not None and _enum_like(item, depth + 1)
                   for key, item in value.items())
    return False


class RequestRedactor:
    """Redacts Messages request bodies with one engine.  Thread-safe.

    ``engine``: a :class:`redactor.engine.Redactor` (anything with ``redact(text,
    names=)`` and ``redact_json(value, keys_and_numbers=True)``).  ``withheld_text``:
    the text a withheld image or PDF becomes.  ``fingerprint``: what identifies the
    engine's settings in the cache keys (one cache may serve several engines).
    """

    def __init__(self, engine: Any, *, binary: str = "block", withheld_text: str,
                 cache: BlockCache | None = None, fingerprint: bytes = b"") -> None:
        if binary not in BINARY_MODES:
            raise ValueError(f"binary must be one of {BINARY_MODES}")
        from redactor.engine import StreamNames

        self._engine = engine
        self._names_type = StreamNames
        self.binary = binary
        self.withheld_text = withheld_text
        self.cache = cache if cache is not None else BlockCache()
        self._fingerprint = hashlib.sha256(fingerprint + b"\0" + binary.encode()).digest()

    # ------------------------------------------------------------------ the request

    def redact_body(self, raw: bytes, *, check: Callable[[], None] | None = None,
                    cached_only: bool = False,
                    shown: Mapping[str, str] | None = None) -> WireResult:
        """The body to send upstream for ``raw``.  ``check`` is called between blocks (a
        deadline check that raises).  Raises :class:`Refused`; with ``cached_only``,
        :class:`NotCached` at the first block the cache does not hold (nothing is
        computed, and the body is left to a full call).

        ``shown`` (value → token): values the gateway showed the person in place of
        tokens; in the assistant's text of the history they become those tokens again
        before anything else, so the upstream sees the bytes it wrote.
        """
        if check is not None:
            check()
        try:
            return self._redact_body(raw, check, cached_only, shown)
        except RecursionError:  # writing a value nested deeper than the writers go
            raise Refused("redactor gateway: the request is nested too deeply to "
                          "write") from None

    def _redact_body(self, raw: bytes, check: Callable[[], None] | None,
                     cached_only: bool, shown: Mapping[str, str] | None) -> WireResult:
        body = _parse(raw)
        if shown:
            _tokens_back(body, shown)
        blocks = self._read(body)
        if _orjson is not None and any(
                kind == "json" and any(_rounded(piece.value) for piece in pieces)
                for pieces, kind in blocks):
            body = _parse(raw, exact=True)
            if shown:
                _tokens_back(body, shown)
            blocks = self._read(body)
        state = _State(self._names_type())
        for pieces, kind in blocks:
            if check is not None:
                check()
            try:
                self._one_block(pieces, kind, state, cached_only)
            except TooDeep:  # a tool input the parser read but the engine's walk does not
                raise Refused("redactor gateway: a tool input is nested too deeply to "
                              "read") from None
        changed = state.changed or state.withheld > 0
        return WireResult(_serialise(body), changed, tuple(sorted(state.entities)),
                          len(blocks), state.computed, state.withheld, tuple(state.issued),
                          tuple(dict.fromkeys(state.cached_tokens)))

    # ------------------------------------------------------------------ walking

    def _read(self, body: dict[str, Any]) -> list[tuple[list[_Piece], str]]:
        """The body's blocks, after the checks of its top-level fields."""
        for key, value in body.items():
            if key in _TEXT_FIELDS or key in KNOWN_PARAMETERS:
                continue
            if not _enum_like(value):
                raise Refused(f"redactor gateway: the request field '{_safe_name(key)}' is "
                              "unknown to this version and could hold text; upgrade redactor")
        if "messages" in body and not isinstance(body["messages"], list):
            raise Refused("redactor gateway: 'messages' is not a list")
        return list(self._blocks(body))

    def _blocks(self, body: dict[str, Any]) -> Iterator[tuple[list[_Piece], str]]:
        """Each block's pieces, in the order the upstream reads them: tools, system,
        messages (the order of the prompt cache's prefix)."""
        tools = body.get("tools")
        if tools is not None:
            if not isinstance(tools, list):
                raise Refused("redactor gateway: 'tools' is not a list")
            for tool in tools:
                if not isinstance(tool, dict):
                    raise Refused("redactor gateway: a tool is not an object")
                yield self._tool_pieces(tool), "tool"
        system = body.get("system")
        if isinstance(system, str):
            yield [_Piece("text", system, body, "system")], "text"
        elif isinstance(system, list):
            for block in system:
                yield from self._content_block(block, "system")
        elif system is not None:
            raise Refused("redactor gateway: 'system' is neither text nor blocks")
        for message in body.get("messages") or ():
            if not isinstance(message, dict):
                raise Refused("redactor gateway: a message is not an object")
            content = message.get("content")
            if isinstance(content, str):
                yield [_Piece("text", content, message, "content")], "text"
            elif isinstance(content, list):
                for block in content:
                    yield from self._content_block(block, "message")
            elif content is not None:
                raise Refused("redactor gateway: a message's content is neither text nor "
                              "blocks")
        # An unknown field passed the enum-like test, but an id can still be a document
        # number or an e-mail address (both match it): its values are redacted as JSON,
        # last, so that they teach no name to the prompt's blocks.
        for key, value in body.items():
            if key not in _TEXT_FIELDS and key not in KNOWN_PARAMETERS:
                yield [_Piece("json", value, body, key)], "json"

    def _content_block(self, block: Any, where: str,
                       depth: int = 0) -> Iterator[tuple[list[_Piece], str]]:
        if isinstance(block, str) and where == "tool_result":
            raise AssertionError("strings are handled by the caller")
        if not isinstance(block, dict):
            raise Refused(f"redactor gateway: a {where} block is not an object")
        kind = block.get("type")
        if not isinstance(kind, str):
            raise Refused(f"redactor gateway: a {where} block has no type")
        if kind == "text":
            if not isinstance(block.get("text"), str):
                raise Refused("redactor gateway: a text block without text")
            yield [_Piece("text", block["text"], block, "text")], "text"
        elif kind in _UNTOUCHED_BLOCKS:
            return
        elif kind in _TOOL_CALLS:
            if "input" in block:
                yield [_Piece("json", block["input"], block, "input")], "json"
        elif kind == "tool_result" and depth == 0:
            content = block.get("content")
            if isinstance(content, str):
                yield [_Piece("text", content, block, "content")], "text"
            elif isinstance(content, list):
                for inner in content:
                    yield from self._content_block(inner, "tool_result", depth + 1)
            elif content is not None:
                raise Refused("redactor gateway: a tool_result's content is neither text nor "
                              "blocks")
        elif kind in ("image", "document", "search_result"):
            yield from self._rich_block(block, kind, depth)
        else:
            raise Refused(f"redactor gateway: the content block type '{_safe_name(kind)}' is "
                          "unknown to this version; upgrade redactor")

    def _rich_block(self, block: dict[str, Any], kind: str,
                    depth: int) -> Iterator[tuple[list[_Piece], str]]:
        pieces = [_Piece("text", block[name], block, name)
                  for name in ("title", "context") if isinstance(block.get(name), str)]
        source = block.get("source")
        if kind == "search_result":
            if isinstance(source, str):
                pieces.append(_Piece("text", source, block, "source"))
            if pieces:
                yield pieces, "text"
            for inner in block.get("content") or ():
                yield from self._content_block(inner, "search_result", depth + 1)
            return
        if not isinstance(source, dict):
            raise Refused(f"redactor gateway: an {kind} block without a source")
        source_type = source.get("type")
        if kind == "document" and source_type == "text":
            if not isinstance(source.get("data"), str):
                raise Refused("redactor gateway: a text document without data")
            pieces.append(_Piece("text", source["data"], source, "data"))
            yield pieces, "text"
        elif kind == "document" and source_type == "content":
            if pieces:
                yield pieces, "text"
            inner = source.get("content")
            if isinstance(inner, str):
                yield [_Piece("text", inner, source, "content")], "text"
            else:
                for item in inner or ():
                    yield from self._content_block(item, "document", depth + 1)
        elif source_type in ("base64", "url", "file"):
            if pieces:
                yield pieces, "text"
            if self.binary == "block":
                yield [_Piece("json", None, block, None)], "binary"
        else:
            raise Refused(f"redactor gateway: an {kind} source of type "
                          f"'{_safe_name(str(source_type))}' is unknown to this version")

    def _tool_pieces(self, tool: dict[str, Any]) -> list[_Piece]:
        pieces = []
        if isinstance(tool.get("description"), str):
            pieces.append(_Piece("text", tool["description"], tool, "description"))
        schema = tool.get("input_schema")
        if isinstance(schema, dict):
            for holder in _descriptions(schema):
                pieces.append(_Piece("text", holder["description"], holder, "description"))
        return pieces

    # ------------------------------------------------------------------ one block

    def _one_block(self, pieces: list[_Piece], kind: str, state: _State,
                   cached_only: bool = False) -> None:
        if kind == "binary":
            for piece in pieces:
                _withhold(piece.holder, self.withheld_text)
            state.withheld += 1
            return
        if not pieces:
            return
        key = self._key(pieces, kind, state)
        done = self.cache.get(key)
        if done is None:
            if cached_only:
                raise NotCached
            done = self._compute(pieces, kind, state.names, state.issued)
            self.cache.put(key, done)
            state.computed += 1
        else:
            state.cached_tokens.extend(done.tokens)
            if done.learns:
                self._learn(state.names, done.learned)
        for piece, value in zip(pieces, done.values, strict=True):
            if value is not _SAME:
                piece.holder[piece.key] = value  # type: ignore[index]
                state.changed = True
        if done.entities:
            state.entities.update(done.entities)
        if done.learns:
            state.names_digest = None

    def _key(self, pieces: list[_Piece], kind: str, state: _State) -> bytes:
        """The block's cache key: a SHA-256 of the engine's fingerprint, the block's kind,
        the names learned before it and its texts (a JSON value as its serialised bytes).
        A digest, not the texts: the cache keeps no text that was not redacted."""
        digest = hashlib.sha256(self._fingerprint)
        digest.update(kind.encode())
        digest.update(state.names_key())
        for piece in pieces:
            if piece.kind == "text":
                data = piece.value.encode("utf-8", "surrogatepass")
                digest.update(b"t%d:" % len(data))
            else:
                data = _serialise(piece.value)
                digest.update(b"j%d:" % len(data))
            digest.update(data)
        return digest.digest()

    def _compute(self, pieces: list[_Piece], kind: str, names: Any,
                 issued: list[Issued]) -> _Done:
        before = (frozenset(names.usernames), frozenset(names.caseless_usernames),
                  frozenset(names.person_words))
        values: list[Any] = []
        entities: set[str] = set()
        first = len(issued)
        for piece in pieces:
            if piece.kind == "text":
                result = self._engine.redact(piece.value, names=names)
                if result.findings:
                    values.append(result.text)
                    entities.update(f.entity_type for f in result.findings)
                    issued.extend(getattr(result, "issued", ()))
                else:
                    values.append(_SAME)
            else:
                json_result = self._engine.redact_json(piece.value, keys_and_numbers=True)
                if json_result.findings:
                    values.append(json_result.value)
                    entities.update(f.entity_type for f in json_result.findings)
                    issued.extend(getattr(json_result, "issued", ()))
                else:
                    values.append(_SAME)
        learned = (frozenset(names.usernames) - before[0] or _NO_NAMES,
                   frozenset(names.caseless_usernames) - before[1] or _NO_NAMES,
                   frozenset(names.person_words) - before[2] or _NO_NAMES)
        tokens = tuple(dict.fromkeys(item.digest for item in issued[first:]))
        return _Done(tuple(values), tuple(sorted(entities)), learned,
                     _ENTRY_BYTES + sum(_footprint(value) for value in values)
                     + sum(_footprint(group) for group in learned if group)
                     + 24 * len(tokens), tokens=tokens)

    @staticmethod
    def _learn(names: Any, learned: tuple[frozenset[str], frozenset[str], frozenset[str]]) -> None:
        names.usernames.update(learned[0])
        names.caseless_usernames.update(learned[1])
        names.person_words.update(learned[2])


class _Same:
    def __repr__(self) -> str:
        return "SAME"


_SAME: Final = _Same()
_NO_NAMES: Final[frozenset[str]] = frozenset()
#: What one cache entry holds besides its values: the key, the LRU link, the entry, its
#: tuples (measured with sys.getsizeof on CPython 3.11, rounded up).
_ENTRY_BYTES: Final = 512


def _footprint(value: Any, depth: int = 0) -> int:
    """The bytes ``value`` (a string or a JSON value) holds as sys.getsizeof counts them;
    an object shared with other entries is counted in each (an overestimate)."""
    if value is _SAME or value is None or isinstance(value, bool):
        return 0
    size = sys.getsizeof(value)
    if depth > 64:
        return size
    if isinstance(value, dict):
        size += sum(_footprint(k, depth + 1) + _footprint(v, depth + 1)
                    for k, v in value.items())
    elif isinstance(value, (list, tuple, frozenset)):
        size += sum(_footprint(item, depth + 1) for item in value)
    return size


@dataclass(slots=True)
class _State:
    names: Any
    changed: bool = False
    withheld: int = 0
    computed: int = 0
    entities: set[str] = field(default_factory=set)
    names_digest: bytes | None = None
    issued: list[Issued] = field(default_factory=list)
    cached_tokens: list[str] = field(default_factory=list)

    def names_key(self) -> bytes:
        if self.names_digest is None:
            digest = hashlib.sha256()
            for group in (self.names.usernames, self.names.caseless_usernames,
                          self.names.person_words):
                for name in sorted(group):
                    digest.update(name.encode("utf-8", "surrogatepass") + b"\0")
                digest.update(b"\1")
            self.names_digest = digest.digest()
        return self.names_digest


def _tokens_back(body: dict[str, Any], shown: Mapping[str, str]) -> None:
    """The assistant's text in ``body`` with every value of ``shown`` written as its
    token again (longest first), in place."""
    pattern = re.compile("|".join(re.escape(v) for v in sorted(shown, key=len, reverse=True)))

    def back(text: str) -> str:
        return pattern.sub(lambda m: shown[m.group()], text)

    for message in body.get("messages") or ():
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        content = message.get("content")
        if isinstance(content, str):
            message["content"] = back(content)
        elif isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "text" \
                        and isinstance(block.get("text"), str):
                    block["text"] = back(block["text"])


def _withhold(block: dict[str, Any], text: str) -> None:
    """Turn ``block`` (an image or a document) into a text block, in place, keeping its
    cache_control."""
    cache_control = block.get("cache_control")
    block.clear()
    block["type"] = "text"
    block["text"] = text
    if cache_control is not None:
        block["cache_control"] = cache_control


def _descriptions(schema: dict[str, Any], depth: int = 0) -> Iterator[dict[str, Any]]:
    """The objects of a JSON schema that hold a ``description`` string."""
    if depth > 32:
        raise Refused("redactor gateway: a tool's input schema is nested too deeply")
    if isinstance(schema.get("description"), str):
        yield schema
    for value in schema.values():
        if isinstance(value, dict):
            yield from _descriptions(value, depth + 1)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    yield from _descriptions(item, depth + 1)


def _safe_name(name: str) -> str:
    """A field or type name for a message: short, and only when it looks like a name:
    it starts with a letter and holds at most 8 digits (a date, as in
    ``web_search_20250305``), so that no document number is echoed back."""
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_.-]{0,39}", name) and \
            sum(c.isdigit() for c in name) <= 8:
        return name
    return "?"
