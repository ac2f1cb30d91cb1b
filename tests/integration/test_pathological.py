"""Pathological inputs: detection stays linear, and a CPF next to hostile text is still found.

Issue 11 item 12.  Each hostile shape (benchmarks/pathological.py) is analysed at 64 KB
and at 256 KB, on the text path (``Redactor.analyze``: the prefilter from 4 KB on) and
on the JSON path (a leaf analysed as ``"<key>: <leaf>"`` with its key as context: no
prefilter, every recognizer over the whole leaf).  Four times the input must cost well
under the square's sixteen times: less than eight times, plus a little slack.  The
timings are CPU times measured in a subprocess, so that a regression to quadratic time
fails on the subprocess's generous timeout instead of hanging the suite.

The rewrites behind the fixes must find exactly what the code they replaced found;
their equivalence is checked against the old implementations on random texts.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import regex

from benchmarks.pathological import EXAMPLE_CPF, build
from redactor.engine import Redactor

REPO = Path(__file__).resolve().parents[2]
#: The 1x size: large enough that timer noise is small against it.
SIZE = 64 * 1024
#: Four times the input may cost at most this many times as much (the square: 16).
MAX_RATIO = 8.0
#: Seconds added to the allowed cost, for shapes that take milliseconds.
SLACK = 0.25
#: Seconds the subprocess of one shape may take in all (a quadratic one takes hours).
TIMEOUT = 600

SHAPES = (
    # Issue 11 item 12.
    "dotted-ones", "sudo-u", "bank-ag-cc", "distinct-users", "email-local-dots",
    # Further suspects: long digit runs, anchors and keywords repeated, separators.
    "digits", "home-paths", "user-eq", "a-at", "dash-u", "dots-between-digits",
    "dashes-between-digits", "email-local-run", "domain-hyphens", "pix-start",
    # Issue 12: street words, capitals and spaces, dates.
    "street-spaces", "street-complements", "dn-spaces",
    # People's names.
    "caps-wall", "name-lines", "capitalised-distinct", "given-name-repeats",
    # Issue 29, item 5: escaped "@"s, separators and form values.
    "percent-at", "percent-local-run", "percent-domain-run", "html-at", "escaped-separators",
    "escaped-cnpj-slashes", "json-breaks-digits", "glued-keywords", "form-value-pluses",
    "form-value-escapes",
)

_MEASURE = """
import json, sys, time
from benchmarks.pathological import build
from redactor.config import Settings
from redactor.engine import Redactor

shape, size = sys.argv[1], int(sys.argv[2])
engine = Redactor(Settings())
engine.analyze("aquecimento " * 400)  # the prefilter compiles outside the timings


def cost(path, text):
    started = time.process_time()
    if path == "text":
        engine.analyze(text)
    else:
        engine.analyze("output: " + text, context=["output"])
    return time.process_time() - started


costs = {}
for path in ("text", "json"):
    once = build(shape, size)
    four = build(shape, 4 * size)
    single = min(cost(path, once) for _ in range(2))
    costs[path] = [single, cost(path, four)]
print(json.dumps(costs))
"""


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES)
def test_detection_cost_grows_linearly(shape: str) -> None:
    done = subprocess.run([sys.executable, "-c", _MEASURE, shape, str(SIZE)], cwd=REPO,
                          capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    costs = json.loads(done.stdout.strip().splitlines()[-1])
    for path, (single, four) in costs.items():
        assert four < MAX_RATIO * single + SLACK, (
            f"{shape} on the {path} path: {four:.3f} s for 4x against {single:.3f} s for 1x")


#: Issue 13's hostile lines for ``redactor redact``: (shape, characters).
CLI_SHAPES = (("dotted-ones", 1 << 20), ("digits", 100_000), ("home-paths", 1 << 20),
              ("user-eq", 1 << 20))


def _redact_file(source: Path, out: Path) -> subprocess.CompletedProcess[bytes]:
    # A generous limit: the process must end, however slow the machine.
    return subprocess.run([sys.executable, "-m", "redactor", "redact", "-q", "--output",
                           str(out), str(source)], cwd=REPO, capture_output=True,
                          timeout=TIMEOUT, check=False)


@pytest.mark.slow
@pytest.mark.parametrize(("shape", "size"), CLI_SHAPES)
def test_hostile_lines_through_the_command(tmp_path: Path, shape: str, size: int) -> None:
    source = tmp_path / f"{shape}.log"
    line = build(shape, size)
    source.write_text(f"cpf {EXAMPLE_CPF} {line} cpf {EXAMPLE_CPF}\n", encoding="utf-8")
    done = _redact_file(source, tmp_path / "out")
    assert done.returncode == 0, done.stderr[-2000:]
    redacted = (tmp_path / "out" / source.name).read_text(encoding="utf-8")
    assert EXAMPLE_CPF not in redacted and redacted.count("[CPF]") >= 2


@pytest.mark.slow
def test_a_200_mb_single_line_through_the_command(tmp_path: Path) -> None:
    """One line of 200 MB (a minified log dump): read in blocks, never whole."""
    source = tmp_path / "dump.log"
    piece = ('{"ts":"2024-11-05 10:00:00.123","pid":4321,"pedido":123456789,'
             '"msg":"operação concluída","req":"9f8e7d6c5b4a3210"},').encode()
    repeats = 200_000_000 // len(piece)
    with source.open("wb") as stream:
        stream.write(f'[{{"cpf":"{EXAMPLE_CPF}"}},'.encode())
        for _ in range(repeats // 1000):
            stream.write(piece * 1000)
        stream.write(f'{{"cpf":"{EXAMPLE_CPF}"}}]\n'.encode())
    size = source.stat().st_size
    done = _redact_file(source, tmp_path / "out")
    assert done.returncode == 0, done.stderr[-2000:]
    target = tmp_path / "out" / source.name
    with target.open("rb") as stream:
        head = stream.read(200)
        stream.seek(-200, 2)
        tail = stream.read()
    assert EXAMPLE_CPF.encode() not in head + tail and b"[CPF]" in head and b"[CPF]" in tail
    # Each CPF became "[CPF]"; nothing else changed.
    assert target.stat().st_size == size - 2 * (len(EXAMPLE_CPF) - len("[CPF]"))


@pytest.fixture(scope="module")
def engine() -> Redactor:
    from redactor.config import Settings

    return Redactor(Settings())


@pytest.mark.parametrize("shape", SHAPES)
def test_a_cpf_next_to_hostile_text_is_redacted(engine: Redactor, shape: str) -> None:
    hostile = build(shape, 8 * 1024)
    text = f"{hostile} CPF {EXAMPLE_CPF} {hostile}"
    assert len(text) >= engine.prefilter_min_chars  # the text path takes the prefilter
    result = engine.redact(text)
    assert EXAMPLE_CPF not in result.text
    assert "BR_CPF" in {f.entity_type for f in result.findings}
    redacted = engine.redact_json({"output": text})
    assert EXAMPLE_CPF not in redacted.value["output"]
    assert "BR_CPF" in {f.entity_type for f in redacted.findings}


def test_a_long_email_local_part_in_a_bash_output_leaf(engine: Redactor) -> None:
    """30 KB of ``a.`` before an ``@`` in a tool output: quadratic before (25 KB > 40 s)."""
    stdout = "a." * 15000 + "@x" + f"\nCPF {EXAMPLE_CPF}\n"
    redacted = engine.redact_json({"tool_response": {"stdout": stdout, "stderr": ""}})
    out = redacted.value["tool_response"]["stdout"]
    assert EXAMPLE_CPF not in out and out.startswith("a.a.a.")


def test_a_dotted_number_run_holds_no_ip_address(engine: Redactor) -> None:
    found = engine.analyze("versões 1.1.1.1.1.1.1.1 e OID 1.3.6.1.4.1.2021; host 10.0.0.1.")
    assert [(f.start, f.end) for f in found if f.entity_type == "IP_ADDRESS"] == [(53, 61)]


def test_sudo_at_the_start_of_a_later_line_names_a_user(engine: Redactor) -> None:
    text = "ls -l\nsudo -u jsilva cat /etc/shadow"
    assert [text[f.start:f.end] for f in engine.analyze(text)
            if f.entity_type == "USERNAME"] == ["jsilva"]


# ------------------------------------------------------- equivalence of the rewrites


def _old_propagation(text: str, names: set[str]) -> list[tuple[int, int]]:
    """The engine's propagation before: one alternation of every name."""
    from recognizers._text import fold
    from recognizers.prefilter import literal_pattern

    pattern = regex.compile(
        r"(?<![\w])(?<![\w][.-])(?:"
        + "|".join(literal_pattern(n) for n in sorted(names, key=len, reverse=True))
        + r")(?![\w])(?![.-][\w])"
    )
    return [m.span() for m in pattern.finditer(text) if fold(m.group()) in names]


# Pieces of texts and names: cases, accents (precomposed and combining), ligatures,
# look-alikes from other blocks, separators.  Turkish dotless and dotted i are left
# out: the old code let a name spelled with one hide a shorter name at the same place.
_PIECES = ("a", "b", "A", "á", "ß", "ss", "\u0301", "\u0302\u0303", ".", "-", " ", "_",
           "1", "ø", "Ø", "x", "æ", "ae", "\n", "@", "/", "\U0001d41a", "\ufb01", "fi")


def test_name_propagation_matches_the_old_alternation() -> None:
    from recognizers._text import fold
    from recognizers.username import name_spans

    rng = random.Random(12)
    word_edges = regex.compile(r"\w(?:.*\w)?", regex.DOTALL)
    compared = 0
    for _ in range(4000):
        names = set()
        for _ in range(rng.randint(1, 4)):
            name = fold("".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 6))))
            if word_edges.fullmatch(name):
                names.add(name)
        if not names:
            continue
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 40)))
        for name in sorted(names):
            if rng.random() < 0.7:
                cut = rng.randint(0, len(text))
                text = text[:cut] + rng.choice((name, name.upper(), name.title())) + text[cut:]
        expected = _old_propagation(text, names)
        compared += len(expected)
        assert name_spans(text, names) == expected, (text, names)
    assert compared > 200


def test_spells_matches_literal_pattern() -> None:
    from recognizers._text import fold
    from recognizers.prefilter import literal_pattern, spells

    pieces = ("a", "A", "á", "ß", "s", "S", "\u0301", "\u0302", ".", " ", "1", "ø", "Ø",
              "æ", "Æ", "e", "İ", "i", "I", "ı", "\U0001d41a", "\ufb01", "f", "ĳ", "j",
              "ª", "²", "2")
    rng = random.Random(5)
    compared = 0
    for _ in range(6000):
        word = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))
        text = word if rng.random() < 0.5 else \
            "".join(rng.choice(pieces) for _ in range(rng.randint(1, 7)))
        if fold(text) != fold(word):
            continue
        compared += 1
        expected = regex.fullmatch(literal_pattern(word), text) is not None
        assert spells(text, word) == expected, (text, word)
    assert compared > 1000


def test_email_spans_match_presidio_pattern() -> None:
    from presidio_analyzer.predefined_recognizers import EmailRecognizer

    from recognizers.generic import email_spans

    flags = regex.DOTALL | regex.MULTILINE | regex.IGNORECASE
    presidio = regex.compile(EmailRecognizer.PATTERNS[0].regex, flags)
    pieces = ("a", "b", "Z", "1", ".", "..", "-", "--", "@", "@", " ", "_", "!", "+", "é",
              "\u0301", "com", ".com", "x.y", "\n", "/", ":", "ç", "'", "a@b.com")
    rng = random.Random(3)
    compared = 0
    for _ in range(10000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        expected = [m.span() for m in presidio.finditer(text)]
        compared += len(expected)
        assert email_spans(text, flags) == expected, text
    assert compared > 1000


def test_context_distance_matches_the_window_scan() -> None:
    from recognizers._text import ContextWords, words

    context = ContextWords(["cpf", "conta corrente", "de acordo", "banco", "a b c"])

    def window_scan(text: str, start: int, end: int) -> int | None:
        left = words(text[max(0, start - 24 * context.before):start])[-context.before:]
        right = words(text[end:end + 24 * context.after])[:context.after]
        for gap in range(max(len(left), len(right))):
            for tokens in (left[len(left) - gap - 1:] if gap < len(left) else None,
                           right[:gap + 1] if gap < len(right) else None):
                if tokens is not None and context._in_tokens(tokens):
                    return gap
        return None

    vocabulary = ("cpf", "cpfs", "conta", "corrente", "de", "acordo", "banco", "x", "a",
                  "b", "c", "123")
    rng = random.Random(8)
    for _ in range(5000):
        left = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(0, 8)))
        right = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(0, 8)))
        text = f"{left} VALUE {right}"
        start = len(left) + 1
        assert context.distance(text, start, start + 5) == window_scan(text, start, start + 5)



def _email_spans_forward(text: str, flags: int) -> list[tuple[int, int]]:
    """email_spans as it was before issue 33: the runs before each "@" found by a
    forward pattern that tried every position of the text (the reference)."""
    from recognizers.generic import _EMAIL_RUN_CHAR, EMAIL_LOCAL_REACH, _email_patterns

    _, last_char, first_char, domain_run, domain = _email_patterns(flags)
    runs = regex.compile(f"(?<!{_EMAIL_RUN_CHAR}){_EMAIL_RUN_CHAR}*+@", flags)
    spans: list[tuple[int, int]] = []
    last_end = 0
    for run in runs.finditer(text):
        at = run.end() - 1
        low = max(run.start(), last_end, at - EMAIL_LOCAL_REACH)
        if at <= low or last_char.fullmatch(text, at - 1, at) is None:
            continue
        host = domain.match(text, at + 1, domain_run.match(text, at + 1).end())
        if host is None:
            continue
        start = first_char.search(text, low, at)
        if start is None:
            continue
        spans.append((start.start(), host.end()))
        last_end = host.end()
    return spans


def test_email_spans_read_each_run_backwards_as_a_forward_scan_would() -> None:
    # email_spans finds each "@" and reads the run before it backwards (issue 33).  Runs
    # around EMAIL_LOCAL_REACH characters long are where the two ways could part.
    from recognizers.generic import EMAIL_LOCAL_REACH, email_spans

    flags = regex.DOTALL | regex.MULTILINE | regex.IGNORECASE
    rng = random.Random(11)
    sizes = (0, 1, 5, EMAIL_LOCAL_REACH - 1, EMAIL_LOCAL_REACH, EMAIL_LOCAL_REACH + 1,
             EMAIL_LOCAL_REACH + 2, 300)
    found = 0
    for _ in range(600):
        pieces = []
        for _ in range(rng.randint(1, 4)):
            pieces.append("".join(rng.choice("ab.1_-é ") if rng.random() < 0.1
                                  else rng.choice("ab.1_-") for _ in range(rng.choice(sizes))))
            pieces.append(rng.choice(("@x.com ", "@", " @b.org", "@@c.net", " ", "\n@d.io")))
        text = "".join(pieces)
        expected = _email_spans_forward(text, flags)
        found += len(expected)
        assert email_spans(text, flags) == expected, text
    assert found > 150
