"""The engine's build and per-call state (issue 30, items 1 and 3): a recognizer without
a prefilter stops the build, names carried along a stream are typed, and analysis sets
nothing on the shared recognizers."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

from redactor import config
from redactor.config import Settings
from redactor.engine import Redactor, StreamNames, build
from redactor.errors import ConfigError

CPF = "529.982.247-25"


class _NoPrefilter:
    """A recognizer that says nothing of where its findings can lie."""

    supported_entities = ("BR_CEP",)
    supported_language = "pt"
    name = "NoPrefilterRecognizer"
    id = "no-prefilter"
    context: ClassVar[tuple[str, ...]] = ()

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
        return []


@pytest.fixture
def unprefiltered_pack(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pack registers one more recognizer, one without ``prefilter()``."""
    import recognizers

    register = recognizers.register

    def with_one_more(registry: Any, **kwargs: Any) -> None:
        register(registry, **kwargs)
        registry.recognizers.append(_NoPrefilter())

    monkeypatch.setattr(recognizers, "register", with_one_more)


@pytest.mark.usefixtures("unprefiltered_pack")
@pytest.mark.parametrize("prefilter", [True, False])
def test_a_recognizer_without_a_prefilter_stops_the_build(prefilter: bool) -> None:
    """It used to turn the prefilter off for every text, silently."""
    with pytest.raises(TypeError, match="NoPrefilter") as raised:
        Redactor(Settings(entities=("BR_CPF", "BR_CEP")), environ={}, prefilter=prefilter)
    assert "_NoPrefilter" in str(raised.value)


def test_every_recognizer_of_the_pack_declares_a_prefilter() -> None:
    engine = Redactor(Settings(), environ={})
    assert engine.prefilter_backend is not None
    assert engine._scanned


def test_names_are_carried_typed_along_a_stream() -> None:
    engine = Redactor(Settings(), environ={})
    carried = StreamNames()
    first = engine.redact("USER=zequinha logon", names=carried)
    assert first.text.count("zequinha") == 0
    assert carried.usernames == {"zequinha"}
    assert not carried.person_words
    later = engine.redact("zequinha saiu", names=carried)
    assert "zequinha" not in later.text
    assert "zequinha" not in repr(carried)  # what it holds is personal data


@pytest.mark.parametrize("names", [set(), ["zequinha"], {"\x00maria"}])
def test_names_must_be_stream_names(names: Any) -> None:
    engine = Redactor(Settings(), environ={})
    with pytest.raises(TypeError, match="StreamNames"):
        engine.analyze("USER=zequinha logon", names=names)
    with pytest.raises(TypeError, match="StreamNames"):
        engine.redact("USER=zequinha logon", names=names)


def test_analysis_sets_nothing_on_the_shared_phone_recognizer() -> None:
    """Whether bare numbers need a keyword is passed with each call, not set on the
    recognizer the engine's other calls (other threads of a warm server) share."""
    from recognizers.generic import BrPhoneRecognizer

    engine = Redactor(Settings(), environ={}, prefilter=False)
    phones = [r for r in engine._analyzer.registry.recognizers
              if isinstance(r, BrPhoneRecognizer)]
    assert phones and list(engine._bare_skippers) == phones
    text = "pedido 4512345678 ok; celular 11987654321\n" * 3
    unlabelled = engine.analyze(text)
    labelled = engine.analyze(text, context=["telefone"])
    assert unlabelled and labelled
    assert all("bare_needs_keyword" not in vars(r) for r in phones)


def test_bare_needs_keyword_holds_within_its_block_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from recognizers.generic import BrPhoneRecognizer, bare_needs_keyword

    recognizer = BrPhoneRecognizer()
    asked: list[str] = []
    original = recognizer._unlifted_candidate

    def spy(text: str, start: int, end: int, keywords: str) -> bool:
        asked.append(text[start:end])
        return original(text, start, end, keywords)

    monkeypatch.setattr(recognizer, "_unlifted_candidate", spy)
    text = "pedido 4512345678 ok; celular 11987654321"
    recognizer.analyze(text, ["PHONE_NUMBER"])
    assert asked == []
    with bare_needs_keyword(frozenset({recognizer.id})):
        inside = recognizer.analyze(text, ["PHONE_NUMBER"])
    assert "4512345678" in asked
    asked.clear()
    with bare_needs_keyword(frozenset({"another"})):
        recognizer.analyze(text, ["PHONE_NUMBER"])
    recognizer.analyze(text, ["PHONE_NUMBER"])
    assert asked == []
    assert inside == recognizer.analyze(text, ["PHONE_NUMBER"], bare_needs_keyword=True)


def test_config_reads_the_known_users_and_the_token_key(tmp_path: Path) -> None:
    listed = tmp_path / "users.txt"
    listed.write_text("# equipe\nzequinha\n\n  maria.souza  \n", encoding="utf-8")
    assert config.read_known_users([listed]) == ["zequinha", "maria.souza"]
    listed.write_bytes(b"\xff\xfe")
    with pytest.raises(ConfigError, match="not UTF-8"):
        config.read_known_users([listed])

    # The hash operator's key: the variable (or [hash] key_file), checked for length.
    hashed = Settings(operators=(("BR_CPF", config.OperatorSpec("hash")),))
    key = "k" * 32
    assert build.token_key(hashed, {"REDACTOR_HASH_KEY": key}) == key.encode()
    with pytest.raises(ConfigError, match="shorter than 16 bytes"):
        build.token_key(hashed, {"REDACTOR_HASH_KEY": "short"})
    assert build.token_key(Settings(), {"REDACTOR_HASH_KEY": "short"}) is None
