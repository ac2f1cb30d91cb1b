"""The public API: redact(), JSON values, operators, configuration, big inputs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import redactor
from benchmarks import synthetic as syn
from recognizers.checksums import canonical
from redactor import ConfigError, OperatorSpec, Settings, redact, redact_json
from redactor.engine import Redactor
from tests.strategies import cnpjs, cpfs

SAMPLE = "cliente CPF 529.982.247-25, login=jsilva, cnpj 12.ABC.345/01DE-35 em /home/ana/x"


def test_redact_text_and_findings(work_dir: Path) -> None:
    result = redact(SAMPLE)
    assert result.text == "cliente CPF [CPF], login=[USERNAME], cnpj [CNPJ] em /home/[USERNAME]/x"
    assert [f.entity_type for f in result.findings] == ["BR_CPF", "USERNAME", "BR_CNPJ",
                                                        "USERNAME"]
    first = result.findings[0]
    assert SAMPLE[first.start:first.end] == "529.982.247-25"  # offsets into the original
    assert first.recognizer == "BrCpfRecognizer" and first.score == 1.0


@pytest.mark.parametrize("bad", [b"529.982.247-25", None, 52998224725, ["x"]])
def test_non_string_input_is_a_type_error(bad: object, engine: Redactor) -> None:
    with pytest.raises(TypeError, match=type(bad).__name__):
        redact(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=type(bad).__name__):
        engine.redact(bad)  # type: ignore[arg-type]


def test_nothing_found_returns_the_same_text(engine: Redactor) -> None:
    text = "nada aqui: pedido 4500012345 concluído"
    result = engine.redact(text)
    assert result.text == text and result.findings == () and not result.changed


def test_redaction_is_idempotent_on_the_sample(engine: Redactor) -> None:
    once = engine.redact(SAMPLE).text
    assert engine.redact(once).findings == ()


planted_values = st.one_of(
    cpfs().flatmap(lambda c: st.sampled_from(list(syn.cpf_forms(c).values()))),
    cnpjs().flatmap(lambda c: st.sampled_from(list(syn.cnpj_forms(c).values()))),
)
fillers = st.sampled_from(["cliente ", " CPF: ", "\n", " | ", ", cnpj ", " user=", "; ", " "])


@given(st.lists(st.tuples(fillers, planted_values), min_size=1, max_size=6))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_no_planted_value_survives_and_second_pass_finds_nothing(
        engine: Redactor, parts: list[tuple[str, str]]) -> None:
    # Values are separated from letters and digits: glued ones ("…35cliente") are not
    # identifiers by the boundary rule (br-identifiers.md §1.2).
    text = "".join(f + v + " " for f, v in parts) + "fim"
    out = engine.redact(text).text
    for _, value in parts:
        assert value not in out
        assert canonical(value) not in canonical(out)
    assert engine.redact(out).findings == ()


def test_json_value_paths_patch_and_types(engine: Redactor) -> None:
    value = {
        "command": "grep 52998224725 /home/mario/app.log",
        "timeout": 60000,
        "description": "procura",
        "run_in_background": False,
        "nested": [{"cpf": "111.444.777-35", "n": None}, "sem dados"],
    }
    result = engine.redact_json(value)
    assert result.value == {
        "command": "grep [CPF] /home/[USERNAME]/app.log",
        "timeout": 60000,
        "description": "procura",
        "run_in_background": False,
        "nested": [{"cpf": "[CPF]", "n": None}, "sem dados"],
    }
    assert list(result.patch) == ["command", "nested"]
    assert result.patch["nested"] == result.value["nested"]
    assert [f.path for f in result.findings] == [("command",), ("command",), ("nested", 0, "cpf")]
    assert value["command"].startswith("grep 5299")  # the input was not modified


def test_json_keys_are_context(engine: Redactor) -> None:
    # A timestamp-shaped number is a CNPJ when its key says so.
    result = engine.redact_json({"cnpj": "20240115103059", "ts": "20240115103059"})
    assert result.value == {"cnpj": "[CNPJ]", "ts": "20240115103059"}


def test_json_without_findings_has_empty_patch(engine: Redactor) -> None:
    result = engine.redact_json({"a": ["b", 1, {"c": "d"}]})
    assert result.patch == {} and result.value == {"a": ["b", 1, {"c": "d"}]}


def test_json_list_and_scalar_roots(engine: Redactor) -> None:
    assert engine.redact_json(["x", "11144477735"]).patch == {1: "[CPF]"}
    assert engine.redact_json("11144477735").value == "[CPF]"
    assert engine.redact_json(42).value == 42


def test_module_level_redact_json(work_dir: Path) -> None:
    assert redact_json({"cpf": "11144477735"}).value == {"cpf": "[CPF]"}


def test_operators_mask_redact_and_custom_placeholder() -> None:
    engine = Redactor(Settings(operators=(
        ("BR_CPF", OperatorSpec(kind="mask", mask_char="#")),
        ("BR_CNPJ", OperatorSpec(kind="redact")),
        ("USERNAME", OperatorSpec(placeholder="[PESSOA_{entity}]")),
    )))
    out = engine.redact("cpf 529.982.247-25 cnpj 11.222.333/0001-81 user=jsilva").text
    assert out == "cpf ############## cnpj  user=[PESSOA_USERNAME]"
    assert engine.redact(out).findings == ()


def test_hash_operator_is_stable_across_calls_and_processes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    key = "k" * 32
    monkeypatch.setenv("REDACTOR_HASH_KEY", key)
    settings = Settings(default_operator=OperatorSpec(kind="hash"))
    engine = Redactor(settings)
    first = engine.redact("CPF 529.982.247-25").text
    assert first.startswith("CPF [CPF:") and len(first) == len("CPF [CPF:]") + 16
    # Masked and bare forms of the same CPF give the same token; another CPF another one.
    assert engine.redact("CPF 52998224725").text == first
    assert engine.redact("CPF 111.444.777-35").text != first
    code = ("from redactor import Settings, OperatorSpec; from redactor.engine import Redactor;"
            "print(Redactor(Settings(default_operator=OperatorSpec(kind='hash')))"
            ".redact('CPF 529.982.247-25').text)")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**dict(__import__("os").environ),
                                            "REDACTOR_HASH_KEY": key})
    assert other.stdout.strip() == first
    monkeypatch.setenv("REDACTOR_HASH_KEY", "o" * 32)
    assert Redactor(settings).redact("CPF 529.982.247-25").text != first


def test_hash_operator_without_key_uses_the_users_key_file(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The hash operator's tokens are the pseudonyms' (redactor.pseudonyms.keys): without
    # its own key it takes the user's, created private on first use.
    monkeypatch.delenv("REDACTOR_HASH_KEY", raising=False)
    monkeypatch.delenv("REDACTOR_BASELINE_KEY", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    first = Redactor(Settings(default_operator=OperatorSpec(kind="hash"))).redact(
        "CPF 529.982.247-25").text
    key_file = tmp_path / "redactor" / "baseline.key"
    assert key_file.exists() and (key_file.stat().st_mode & 0o777) == 0o600
    assert Redactor(Settings(default_operator=OperatorSpec(kind="hash"))).redact(
        "CPF 52998224725").text == first
    monkeypatch.setenv("REDACTOR_HASH_KEY", "short")
    with pytest.raises(ConfigError, match="shorter than 16"):
        Redactor(Settings(default_operator=OperatorSpec(kind="hash")))


def test_a_detectable_placeholder_is_refused() -> None:
    with pytest.raises(ConfigError, match="itself detected"):
        Redactor(Settings(operators=(
            ("BR_CPF", OperatorSpec(placeholder="[{label}_11144477735]")),)))


def test_allowlist_values_in_any_written_form() -> None:
    engine = Redactor(Settings(allow_values=("529.982.247-25",)))
    out = engine.redact("teste 52998224725 e 529.982.247-25, real 111.444.777-35").text
    assert out == "teste 52998224725 e 529.982.247-25, real [CPF]"


def test_disabled_entities_are_not_detected() -> None:
    engine = Redactor(Settings(entities=("BR_CNPJ",)))
    assert engine.redact("cpf 529.982.247-25 user=jsilva").findings == ()


def test_known_users_file_of_thousands(tmp_path: Path) -> None:
    names = [f"colab{i:05d}" for i in range(5000)] + ["Ana Paula Reis", "# comentário", ""]
    users = tmp_path / "users.txt"
    users.write_text("\n".join(names), encoding="utf-8")
    engine = Redactor(Settings(known_users_files=(users,)))
    text = "COLAB04321 aprovou; ana paula reis revisou; colab04321x não; comentário fica"
    result = engine.redact(text)
    assert result.text == "[USERNAME] aprovou; [USERNAME] revisou; colab04321x não; comentário fica"


def test_unreadable_known_users_file_names_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    with pytest.raises(ConfigError, match=str(missing)):
        Redactor(Settings(known_users_files=(missing,)))


def test_service_accounts_are_configurable() -> None:
    strict = Redactor(Settings(builtin_service_accounts=False))
    assert [f.entity_type for f in strict.analyze("user=root")] == ["USERNAME"]
    relaxed = Redactor(Settings(service_accounts=("svc_backup",)))
    assert relaxed.analyze("user=svc_backup") == ()


def test_ten_megabytes_with_chunks_equal_to_one_pass(engine: Redactor,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    rng = random.Random(2)
    lines = []
    for i in range(120_000):
        if i % 50 == 0:
            lines.append(f"linha {i} cliente CPF {syn.cpf_forms(syn.random_cpf(rng))['masked']}")
        elif i % 77 == 0:
            lines.append(f"linha {i} STCD1={syn.random_cnpj(rng)} USER=MSOUZA")
        else:
            lines.append(f"linha {i} pedido PED-{rng.randint(0, 10**6)} ok processado em lote")
    text = "\n".join(lines)
    assert len(text) > 3_500_000
    big = text * 3  # > 10 MB
    assert len(big) > 10_000_000
    result = engine.redact(big)
    assert result.text.count("[CPF]") == 3 * text.count("cliente CPF")
    # The chunked analysis equals one pass over a text that fits one chunk.
    import redactor.engine.analysis as engine_module

    sample = text[:300_000]
    whole = engine.analyze(sample)
    monkeypatch.setattr(engine_module, "CHUNK_SIZE", 7_000)
    monkeypatch.setattr(engine_module, "CHUNK_OVERLAP", 512)
    assert engine.analyze(sample) == whole


def test_default_redact_reads_the_project_file(work_dir: Path) -> None:
    (work_dir / ".redactor.toml").write_text(
        '[operators.BR_CPF]\nplaceholder = "[DOC_CPF]"\n', encoding="utf-8")
    assert redact("cpf 529.982.247-25").text == "cpf [DOC_CPF]"
    (work_dir / ".redactor.toml").write_text("[detection\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="invalid TOML"):
        redact("cpf 529.982.247-25")


def test_import_is_lazy_and_api_is_small() -> None:
    assert set(redactor.__all__) >= {"redact", "redact_json", "Redactor", "Settings", "Finding",
                                     "RedactionResult", "RedactorError"}
    assert redactor.Redactor is Redactor


def test_errors_never_hold_values(tmp_path: Path) -> None:
    users = tmp_path / "users.txt"
    users.write_bytes(b"\xff529.982.247-25\n")
    with pytest.raises(ConfigError) as info:
        Redactor(Settings(known_users_files=(users,)))
    assert "529" not in str(info.value.args) or str(users) in str(info.value)
    assert "982" not in str(info.value).replace(str(users), "")


def test_findings_are_json_serialisable(engine: Redactor) -> None:
    import dataclasses

    findings = engine.redact(SAMPLE).findings
    assert json.loads(json.dumps([dataclasses.asdict(f) for f in findings]))[0]["entity_type"] \
        == "BR_CPF"


def test_named_spacy_model_is_used_and_gives_the_same_patterns(tmp_path: Path,
                                                              engine: Redactor) -> None:
    import spacy

    model = tmp_path / "blank-pt"
    spacy.blank("pt").to_disk(model)
    with_model = Redactor(Settings(spacy_model=str(model)))
    assert type(with_model._analyzer.nlp_engine).__name__ == "SpacyNlpEngine"
    assert any(type(r).__name__ == "SpacyRecognizer"
               for r in with_model._analyzer.registry.recognizers)
    text = "cliente CPF 529.982.247-25 user=jsilva cnpj 11222333000181"
    assert with_model.redact(text).text == engine.redact(text).text


def test_missing_spacy_model_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="spacy_model"):
        Redactor(Settings(spacy_model="pt_model_that_is_not_installed"))


def test_presidio_debug_logs_hold_no_values(engine: Redactor,
                                            caplog: pytest.LogCaptureFixture) -> None:
    import logging

    caplog.set_level(logging.DEBUG)
    text = "cliente CPF 529.982.247-25 login=jsilva email a.b@empresa.com.br"
    Redactor(Settings()).redact(text)
    engine.redact(text)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert caplog.records  # Presidio does log at DEBUG; none of it may carry the data
    for value in ("529.982.247-25", "52998224725", "jsilva", "a.b@empresa.com.br"):
        assert value not in logged


@pytest.fixture(scope="module")
def every_operator() -> Redactor:
    operators = (("BR_CPF", OperatorSpec("mask", mask_char="#")),
                 ("BR_CNPJ", OperatorSpec("redact")),
                 ("USERNAME", OperatorSpec("hash")),
                 ("EMAIL_ADDRESS", OperatorSpec("replace", placeholder="[{entity}]")))
    return Redactor(Settings(operators=operators), environ={"REDACTOR_HASH_KEY": "k" * 32})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_operators_give_what_presidios_anonymizer_engine_gives(
        data: st.DataObject, every_operator: Redactor) -> None:
    # _apply runs Presidio's operators span by span; AnonymizerEngine over the same
    # disjoint findings must give the same text.
    from presidio_anonymizer import AnonymizerEngine
    from presidio_anonymizer.entities import RecognizerResult

    from redactor.engine.spans import Span

    text = data.draw(st.text(st.characters(codec="utf-8"), min_size=1, max_size=300))
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(text)), max_size=40))))
    entities = ["BR_CPF", "BR_CNPJ", "USERNAME", "EMAIL_ADDRESS", "IP_ADDRESS"]
    spans = [Span(a, b, data.draw(st.sampled_from(entities)), 1.0, "test")
             for a, b in zip(cuts[::2], cuts[1::2], strict=False) if a < b]
    ours = every_operator._apply(text, spans)
    theirs = AnonymizerEngine().anonymize(  # type: ignore[no-untyped-call]
        text=text, analyzer_results=[RecognizerResult(s.entity, s.start, s.end, s.score)
                                     for s in spans],
        operators=every_operator._operators, merge_entities_with_spaces=False).text
    assert ours == theirs


@pytest.mark.parametrize("hidden", ["\u200b", "\u00ad", "\U000e0020", "\u2060"])
def test_invisible_characters_inside_a_cpf_in_long_accented_text(hidden: str) -> None:
    filler = "operação concluída às 10h, usuário avisado; " * 200  # past the prefilter size
    cpf = f"529.98{hidden}2.247-25"
    result = redact(f"{filler}cpf {cpf} {filler}")
    assert cpf not in result.text and "[CPF]" in result.text
    assert [f.entity_type for f in result.findings] == ["BR_CPF"]


ESCAPED_RECORDS = [
    {"user": "joão.silva", "msg": "login ok"},
    {"user": "João Pereira", "msg": "ok"},
    {"msg": "Usuário João Pereira entrou às 10h"},
    {"name": "Ana Conceição", "cpf": "529.982.247-25"},
    {"msg": "contato: maria.conceição@example.com, (11) 98765-4321"},
    {"msg": "nada a declarar, operação concluída"},
]


@pytest.mark.parametrize("record", ESCAPED_RECORDS)
def test_a_json_log_written_with_escapes_reads_as_the_same_log_without_them(
        record: dict[str, str], engine: Redactor) -> None:
    # json.dumps escapes every character beyond ASCII: a JSON log read as text holds
    # "Jo\u00e3o", which split a name in two and left half of a login ("[USERNAME]\u00e3o").
    # Each escape is read as its character, and a finding covers the escapes inside it.
    plain = json.dumps(record, ensure_ascii=False)
    escaped = json.dumps(record)
    again = json.dumps(escaped)  # the document inside a string: its backslashes doubled
    expected = json.loads(engine.redact(plain).text)
    assert json.loads(engine.redact(escaped).text) == expected
    # Inside a string (its quotes escaped too, which the shapes read otherwise), the
    # doubled escapes read as the document with its characters as they are.
    inside = json.dumps(plain, ensure_ascii=False)
    assert json.loads(json.loads(engine.redact(again).text)) \
        == json.loads(json.loads(engine.redact(inside).text))
    assert [f.entity_type for f in engine.redact(escaped).findings] \
        == [f.entity_type for f in engine.redact(plain).findings]


def test_escapes_of_ascii_characters_and_lone_surrogates_are_read_as_written(
        engine: Redactor) -> None:
    # Only characters beyond ASCII are read through their escapes: "\u0022" stays a
    # quote's escape (reading it as a quote would move a string's end), a lone
    # surrogate no character.
    text = 'msg "cpf \\u0022 ok" \\ud83d tail C:\\users\\u00e3 done'
    assert engine.redact(text).text == text
    result = engine.redact('{"msg": "Jo\\u00e3o Pereira \\ud83d\\ude00 entrou"}')
    assert result.text == '{"msg": "[NOME] \\ud83d\\ude00 entrou"}'


def test_an_escaped_space_stays_written_inside_a_value(engine: Redactor) -> None:
    # Found by review: read as a space, "\u00a0" ended a password that runs on over it
    # ("Minha\u00a0Senha\u00a0Forte1" was left in clear). Only letters and marks are read
    # through their escapes.
    for text, redacted in [("password: Minha\\u00a0Senha\\u00a0Forte1", "password: [SECRET]"),
                           ("token=abc123\\u3000def456ghi", "token=[SECRET]")]:
        assert engine.redact(text).text == redacted


def test_a_long_run_of_backslashes_is_read_in_linear_time(engine: Redactor) -> None:
    # Found by review: the escape pattern tried the whole run from each backslash.
    from redactor.engine.analysis import _ESCAPE, _wide_escapes

    text = "cpf 529.982.247-25 \\u00e3 " + "\\" * 50_000 + " fim"
    run = text.index("\\" * 2)
    # No match may start inside the run but at its first backslash: tried from each of
    # them, a match scanned the rest of the run.
    assert all(_ESCAPE.match(text, at) is None for at in range(run + 1, run + 2000))
    assert [m.group(1) for m in _wide_escapes(text)] == ["00e3"]
    assert "529.982.247-25" not in engine.redact(text).text


@pytest.mark.parametrize("kind", ["hash", "mask"])
def test_an_escaped_value_is_operated_on_as_the_value_written_plainly(kind: str) -> None:
    # Found by review: the hash of "Jo\u00e3o Pereira" differed from that of "João Pereira".
    operators = tuple((entity, OperatorSpec(kind)) for entity in ("PERSON", "USERNAME"))
    hashing = Redactor(Settings(operators=operators))
    for plain, escaped in [("Usuário João Pereira entrou",
                            "Usu\\u00e1rio Jo\\u00e3o Pereira entrou"),
                           ("user=joão.silva ok", "user=jo\\u00e3o.silva ok")]:
        written = hashing.redact(plain).text
        assert hashing.redact(escaped).text.replace("Usu\\u00e1rio", "Usuário") == written
