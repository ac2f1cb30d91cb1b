"""Pathological inputs: throughput of hostile shapes through the text and JSON paths.

Each shape is a short unit repeated to the requested size; the script prints the
seconds and MB/s per shape, size and path (never the redacted text).  A shape whose
4x input costs far more than 4x its 1x input is superlinear.

    python benchmarks/pathological.py --sizes 65536,262144 [--shape NAME ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Final

#: The documented example CPF (synthetic).
EXAMPLE_CPF: Final = "529.982.247-25"


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda size: (unit * (size // len(unit) + 1))[:size]


def _users(size: int) -> str:
    parts: list[str] = []
    total = 0
    index = 0
    while total < size:
        part = f"user=u{index} "
        parts.append(part)
        total += len(part)
        index += 1
    return "".join(parts)


def _between(separator: str) -> Callable[[int], str]:
    return lambda size: "1" + separator * max(size - 2, 0) + "1"


def _email_local(size: int) -> str:
    return "a." * (size // 2) + "@x"


def _letters(number: int) -> str:
    word = ""
    while True:
        number, digit = divmod(number, 26)
        word += chr(ord("a") + digit)
        if not number:
            return word


def _capitalised_distinct(size: int) -> str:
    """Distinct capitalised words (``Xa Xb …``), none of them a known name."""
    words: list[str] = []
    total = 0
    while total < size:
        words.append("Xq" + _letters(len(words)))
        total += len(words[-1]) + 1
    return " ".join(words)


#: Shape name -> builder of a text of about ``size`` characters.
SHAPES: Final[dict[str, Callable[[int], str]]] = {
    "dotted-ones": _repeat("1."),
    "sudo-u": _repeat("sudo -u "),
    "bank-ag-cc": _repeat("ag 1234 c/c "),
    "distinct-users": _users,
    "email-local-dots": _email_local,
    "digits": _repeat("1234567890"),
    "home-paths": _repeat("/home/"),
    "user-eq": _repeat("user="),
    "a-at": _repeat("a@"),
    "dash-u": _repeat("-u "),
    "dots-between-digits": _between("."),
    "dashes-between-digits": _between("-"),
    # Further shapes: dense findings, keywords and anchors of every recognizer.
    "cpf-dense": _repeat(EXAMPLE_CPF + " "),
    "rg-dense": _repeat("12.345.678-9 "),
    "email-dense": _repeat("a@b.com "),
    "email-local-run": _repeat("a.a@"),
    "domain-hyphens": lambda size: "x@" + "a-" * (size // 2),
    "at-dot": _repeat("@."),
    "user-at-host": _repeat("jsilva@srv01 "),
    "display-names": _repeat("usuário: Maria da Silva "),
    "xml-user": _repeat("<user>x</user>"),
    "windows-users": _repeat("C:\\Users\\"),
    "auth-log": _repeat("password for "),
    "quoted-user": _repeat("user '"),
    "bank-keywords": _repeat("conta corrente nº "),
    "cpf-keywords": _repeat("cpf "),
    "digits-spaces": _repeat("1 "),
    "digits-dashes": _repeat("1-"),
    "area-codes": _repeat("(11) "),
    "plus-digits": _repeat("+5"),
    "colons": _repeat("1:"),
    "ipv6-ish": _repeat("::1 "),
    "pix-start": _repeat("000201"),
    "hex-groups": _repeat("abcd-"),
    "newlines": _repeat("\n"),
    "capitalised": _repeat("Maria Silva "),
    # Street addresses and birth dates: street words, capitals and spaces, dates.
    "street-words": _repeat("Rua A "),
    "street-spaces": lambda size: "Rua A" + " " * max(size - 6, 0) + "x",
    "street-complements": lambda size: "Rua A 1" + " apto 1" * (size // 7),
    "birth-dates": _repeat("nascimento 12/03/1980 "),
    "dn-spaces": _repeat("DN:   "),
    # People's names: walls of capitals, lists, distinct words, propagation.
    "caps-wall": _repeat("MARIA SILVA COSTA "),
    "title-wall": _repeat("Maria Silva Costa Lima "),
    "name-lines": _repeat("Maria\nSilva\n"),
    "capitalised-distinct": _capitalised_distinct,
    "apostrophes-hyphens": _repeat("D'Ávila Ana-Maria "),
    "titles-dense": _repeat("Dr. Sr. cliente "),
    "given-name-repeats": lambda size: "Cliente: Maria Souza. " + "a Maria e " * (size // 10),
    # Secrets (issue 14): keys, armour lines, token starts and manifests, dense or unclosed.
    "password-eq": _repeat("password="),
    "senha-colon": lambda size: "senha: " * (size // 7),
    "key-runs": _repeat("a_token_b_key_c_pw_"),
    "quote-after-key": lambda size: 'password="' + "a" * max(size - 10, 0),
    "pem-begins": _repeat("-----BEGIN RSA PRIVATE KEY-----\n"),
    "pem-ends": _repeat("AAAA\n-----END RSA PRIVATE KEY-----\n"),
    "pem-open-body": lambda size: ("-----BEGIN PRIVATE KEY-----\n"
                                   + ("A" * 64 + "\n") * (size // 65)),
    "pem-body-footer": lambda size: ("A" * 64 + "\n") * (size // 65) + "-----END PRIVATE KEY-----",
    "jwt-starts": _repeat("eyJ"),
    "jwt-dots": _repeat("eyJa."),
    "url-credentials": _repeat("://a:"),
    # Escaped forms (issue 29, item 5): escaped "@"s, separators and form values.
    "percent-at": _repeat("%40"),
    "percent-local-run": lambda size: "a%2E" * (size // 4) + "%40example.com",
    "percent-domain-run": lambda size: "a%40" + "b%2E" * (size // 4),
    "html-at": _repeat("a&#64;"),
    "escaped-separators": _repeat("1%2E"),
    "escaped-cnpj-slashes": _repeat("11.222.333%2F"),
    "json-breaks-digits": _repeat("\\n529"),
    "glued-keywords": _repeat("cpf529"),
    "form-value-pluses": lambda size: "nome=Maria" + "+Souza" * (size // 6),
    "form-value-escapes": _repeat("nome=Maria%20"),
    "url-at": _repeat("x://a:b@"),
    "manifest-dense": _repeat("kind: Secret\ndata:\n  a: b\n"),
    "manifest-headers": lambda size: "kind: Secret\n" + "data:\n" * (size // 6),
    "manifest-far": lambda size: ("data:\n  a: b\n" * 150 + "kind: Secret\n") * (size // 1800),
    "json-manifests": _repeat('{"data":{"a":"b"},"kind":"Secret"}'),
    "json-braces": lambda size: '"kind":"Secret"' + '{"data":{' * (size // 10),
    "auth-schemes": _repeat("Bearer "),
    "base64-pem-starts": _repeat("LS0tLS1CRUdJTi"),
    "slack-dashes": lambda size: "xoxb-" + "1-" * (size // 2),
    "putty-headers": _repeat("PuTTY-User-Key-File-2: "),
    "yaml-spaces": lambda size: "kind: Secret\ndata:\n  a:" + " " * size,
    # Found by review: detect-secrets' OpenAI pattern backtracked on a run of "sk-".
    "sk-runs": _repeat("sk-"),
    "disk-runs": _repeat("disk-"),
    "chave-line": _repeat("chave=abc123x "),
    "key-run": _repeat("key"),
    "aws-quotes": _repeat("awskey'"),
    "scheme-run": lambda size: "a" * max(size - 3, 0) + "://",
}



def build(shape: str, size: int) -> str:
    """The hostile text of ``shape``, about ``size`` characters long."""
    return SHAPES[shape](size)


def measure(engine: object, shape: str, size: int, path: str, mode: str = "redact") -> float:
    """Seconds to redact (or only analyse) the shape through ``path`` ("text" or "json").

    Analysis of the JSON path is that of a leaf under the key ``output`` (a key that
    lifts no entity, so the leaf is prefiltered like a text).
    """
    from redactor.engine import Redactor

    assert isinstance(engine, Redactor)
    text = build(shape, size)
    started = time.perf_counter()
    if mode == "analyze":
        if path == "text":
            engine.analyze(text)
        else:
            engine.analyze("output: " + text, context=["output"])
    elif path == "text":
        engine.redact(text)
    else:
        engine.redact_json({"output": text})
    return time.perf_counter() - started


#: The dense shapes of issue 33 (after issue 11): a finding every 8 to 20 characters.
DENSE: Final = ("sudo-u", "distinct-users", "dotted-ones", "bank-ag-cc", "cpf-dense",
                "email-dense", "user-eq")


def dense_table(engine: object, size: int, repeat: int = 3) -> int:
    """Steady figures of the dense shapes, as ``redactor redact`` meets them: the engine
    warm and its heap settled (batch.settle_heap), the best of ``repeat`` runs; per
    shape, MB/s, findings and µs per finding."""
    from redactor import batch
    from redactor.engine import Redactor

    assert isinstance(engine, Redactor)
    texts = {shape: build(shape, size) for shape in DENSE}
    for text in texts.values():
        engine.redact(text)  # caches and word lists load outside the timings
    batch.want_settled_heap()
    batch.settle_heap()
    print(f"{'shape':<16} {'MB/s':>6} {'findings':>9} {'µs/finding':>11}")
    for shape, text in texts.items():
        best = float("inf")
        findings = 0
        for _ in range(repeat):
            started = time.perf_counter()
            result = engine.redact(text)
            best = min(best, time.perf_counter() - started)
            findings = len(result.findings)
        per = f"{best / findings * 1e6:11.1f}" if findings else f"{'-':>11}"
        print(f"{shape:<16} {len(text) / 1e6 / best:6.2f} {findings:9d} {per}", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="65536,262144",
                        help="comma-separated sizes in characters")
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES),
                        help="only these shapes (repeatable); default all")
    parser.add_argument("--path", action="append", choices=("text", "json"),
                        help="only these paths (repeatable); default both")
    parser.add_argument("--mode", choices=("redact", "analyze"), default="redact",
                        help="full redaction (default) or analysis only")
    parser.add_argument("--profile", action="store_true",
                        help="print the top functions of a cProfile run per measurement")
    parser.add_argument("--dense", action="store_true",
                        help="only the table of the dense shapes: steady µs per finding")
    args = parser.parse_args(argv)
    from redactor.config import Settings
    from redactor.engine import Redactor

    engine = Redactor(Settings())
    engine.redact("aquecimento " * 400)  # compile the prefilter outside the timings
    if args.dense:
        return dense_table(engine, int(args.sizes.split(",")[0]))
    sizes = [int(s) for s in args.sizes.split(",")]
    for shape in args.shape or list(SHAPES):
        for path in args.path or ["text", "json"]:
            cells = []
            for size in sizes:
                if args.profile:
                    import cProfile
                    import pstats

                    profiler = cProfile.Profile()
                    profiler.enable()
                    seconds = measure(engine, shape, size, path, args.mode)
                    profiler.disable()
                    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
                else:
                    seconds = measure(engine, shape, size, path, args.mode)
                cells.append(f"{size // 1024:>5} KB {seconds:8.3f} s "
                             f"{size / 1e6 / max(seconds, 1e-9):8.2f} MB/s")
            print(f"{shape:<22} {path:<4} " + " | ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
