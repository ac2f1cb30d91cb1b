"""Batch throughput: ``redactor redact`` end to end against a plain-``re`` reference.

The corpus follows performance-baseline.md §6 (seed 7): Java, SAP application, SAP
IDoc and payment-gateway lines; about 2 % carry a valid CPF or CNPJ (masked CPF,
bare CPF in STCD2, bare CNPJ in STCD1, masked CNPJ) and about 2 % are decoys
(11-digit mobile numbers redrawn until they fail the CPF check).  SAP lines name
their user as ``USER=<user>``; here those are service accounts (BATCH, DDIC, …), so
that only the planted values are personal data.

Two plain-``re`` references run in the same process: the one of
performance-baseline.md (the four CPF/CNPJ shapes in one alternation, checksum,
rewrite) and one covering redactor's default entities the same plain way (CPF,
CNPJ, e-mail, phone, card, IP, IBAN, user=...).  redactor runs as the command a
user would type, once on an empty file to time its start-up (imports, engine) and
once on the corpus.  Outputs are checked (no planted value left; the CPF/CNPJ
reference replaced exactly the planted ones).  Figures are printed, nothing is
asserted.

    python benchmarks/throughput.py [--mb 50] [--jobs 2] [--skip-reference]
        [--corpus logs|digits] [--costs]
    python benchmarks/throughput.py --zoo [--mb 10] [--costs] [--family NAME ...]

``--zoo`` runs every family of the log zoo (benchmarks/zoo.py) instead: per family the
CPF+CNPJ reference's MB/s, redactor's steady MB/s, their ratio, the worst and the median
family; ``--costs`` adds each family's three costliest entities (each alone, CPU time on
2 MB).  The steady rate is marginal: the command runs on the family's first quarter and
on all of it, and the extra megabytes are divided by the extra seconds, so that the
start-up and what the first block loads (word lists, phone metadata) cancel out.  The
rate with only the start-up on an empty input taken off, as earlier tables gave it, is
printed beside it.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import synthetic as syn

SERVICE_USERS = ("BATCH", "DDIC", "WF-BATCH", "ALEREMOTE", "SAP_WFRT")


def _generated(megabytes: float, seed: int, line_of: Callable[[random.Random, list[str]], str],
               size_of: Callable[[str], int]) -> tuple[str, list[str]]:
    """Lines of ``line_of`` (which appends what it plants) until ``megabytes`` are written."""
    rng = random.Random(seed)
    lines: list[str] = []
    planted: list[str] = []
    size = 0
    limit = megabytes * 1_000_000
    while size < limit:
        line = line_of(rng, planted)
        lines.append(line)
        size += size_of(line) + 1
    return "\n".join(lines) + "\n", planted


def _utf8_size(line: str) -> int:
    return len(line.encode())


def corpus(megabytes: float, seed: int = 7) -> tuple[str, list[str]]:
    return _generated(megabytes, seed, _log_line, len)


def _log_line(rng: random.Random, planted: list[str]) -> str:
    day = rng.randint(1, 28)
    draw = rng.random()
    if draw < 0.02:
        kind = rng.random()
        cpf, cnpj = syn.random_cpf(rng), syn.random_cnpj(rng, order="0001")
        if kind < 0.30:
            value = syn.cpf_forms(cpf)["masked"]
            line = (f"2024-11-{day:02d} 10:15:00.000 INFO [http-nio-8080-exec-2] "
                    f"c.e.o.CustomerApi - cadastro atualizado cliente CPF {value} "
                    "nome=*** uf=SP")
        elif kind < 0.55:
            value = cpf
            line = (f"202411{day:02d} 101500 SAPMF02D XD02 USER=BATCH KNA1 changed "
                    f"STCD2={value} KUNNR={rng.randint(0, 10**10):010d}")
        elif kind < 0.80:
            value = cnpj
            line = (f"202411{day:02d} 101500 SAPMF02D XD01 USER=BATCH KNA1 created "
                    f"STCD1={value} LAND1=BR")
        else:
            value = syn.cnpj_forms(cnpj)["masked"]
            line = (f"2024-11-{day:02d} 10:15:00.000 WARN nfe-emitter: destinatario CNPJ "
                    f"{value} rejeicao 539 duplicidade chave={rng.getrandbits(80):020x}")
        planted.append(value)
    elif draw < 0.04:
        line = (f"2024-11-{day:02d} 10:15:00.000 INFO NotifyService - SMS enviado "
                f"telefone={syn.mobile_not_cpf(rng)} protocolo={syn.mobile_not_cpf(rng)} "
                "status=OK")
    else:
        plain = rng.random()
        if plain < 0.35:
            line = (f"2024-11-{day:02d} 10:15:{rng.randint(0, 59):02d}.000 INFO "
                    f"[http-nio-8080-exec-{rng.randint(1, 9)}] c.e.o.OrderService - Order "
                    f"45{rng.randint(0, 10**8):08d} created for customer "
                    f"00000{rng.randint(0, 99999):05d}, total={rng.randint(1, 9999)}.00 BRL "
                    f"traceId={rng.getrandbits(64):016x}")
        elif plain < 0.65:
            line = (f"202411{day:02d} 101500 SAPMV45A VA01 USER={rng.choice(SERVICE_USERS)} "
                    f"MSG=V1 311 Sales document {rng.randint(0, 10**10):010d} saved "
                    f"SOLD_TO={rng.randint(0, 10**10):010d} PLANT=BR{rng.randint(1, 99):02d} "
                    f"VKORG=1{rng.randint(0, 999):03d}")
        elif plain < 0.80:
            line = (f"IDOC {rng.randint(10**15, 10**16 - 1)} DEBMAS05 "
                    f"status={rng.randint(10, 99)} "
                    f"partner=BR_CUST_{rng.randint(0, 99999):05d} mestyp=DEBMAS "
                    f"segs={rng.randint(1, 99)} rcvprn=S4PCLNT{rng.randint(100, 999)}")
        else:
            line = (f"[2024-11-{day:02d}T10:15:00.000Z] INFO payment-gw: "
                    f"txid={rng.getrandbits(96):024x} retry={rng.randint(0, 3)} "
                    f"latency_ms={rng.randint(1, 999)} amount={rng.randint(1, 9999)}.00 "
                    f"nsu={rng.randint(0, 999999):06d}")
    return line


#: Portuguese messages of an application log: accents, no personal data.
_MESSAGES = (
    "Requisição concluída com sucesso", "Sessão expirada; nova autenticação necessária",
    "Integração com o serviço de cobrança reiniciada", "Atualização do cadastro concluída",
    "Conexão recusada pelo servidor de aplicação", "Não foi possível gerar a nota fiscal",
    "Pagamento aprovado pela operadora", "Geração do relatório mensal iniciada",
    "Sincronização do estoque concluída", "Tempo limite excedido na consulta ao banco",
    "Solicitação de reembolso registrada", "Notificação enviada à fila de e-mails",
)


def digit_corpus(megabytes: float, seed: int = 7) -> tuple[str, list[str]]:
    """Digit-heavy, accented pt-BR application logs (issue 13's held-out kind).

    Every line carries numbers: timestamps, pids, thread ids, millisecond timings,
    request ids, 9-digit order keys (also as JSON numbers), amounts.  About 2 % of
    the lines hold a CPF or CNPJ (masked and bare, in text and in JSON), about 2 % a
    near miss: the same shapes with wrong check digits, redrawn until they fail.
    """
    return _generated(megabytes, seed, _digit_line, _utf8_size)


def _digit_line(rng: random.Random, planted: list[str]) -> str:
    stamp = (f"2024-11-{rng.randint(1, 28):02d} {rng.randint(0, 23):02d}:"
             f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}")
    pid, ms = rng.randint(1000, 65535), rng.randint(1, 99999)
    order, request = rng.randint(10**8, 10**9 - 1), f"{rng.getrandbits(64):016x}"
    message = rng.choice(_MESSAGES)
    draw = rng.random()
    if draw < 0.04:
        planted_line = draw < 0.02
        kind = rng.random()
        cpf = syn.random_cpf(rng) if planted_line else syn.invalid_cpf(rng)
        cnpj = (syn.random_cnpj(rng, order="0001") if planted_line
                else syn.invalid_cnpj(rng))
        if kind < 0.25:
            value = syn.cpf_forms(cpf)["masked"]
            line = (f"{stamp} [pid {pid}] INFO  CadastroService - {message}; cliente CPF "
                    f"{value} pedido {order} em {ms} ms")
        elif kind < 0.5:
            value = cpf
            line = (f'{{"ts":"{stamp}","pid":{pid},"pedido":{order},"documento":"{value}",'
                    f'"latencia_ms":{ms},"msg":"{message}"}}')
        elif kind < 0.75:
            value = syn.cnpj_forms(cnpj)["masked"]
            line = (f"{stamp} [pid {pid}] WARN  NotaFiscal - {message}: emitente CNPJ "
                    f"{value} chave {rng.getrandbits(128):032x} ({ms} ms)")
        else:
            value = cnpj
            line = (f"{stamp} {pid} {order} fornecedor={value} valor={rng.randint(1, 99999)}"
                    f",{rng.randint(0, 99):02d} tempo={ms}ms req={request}")
        if planted_line:
            planted.append(value)
    else:
        shape = rng.random()
        if shape < 0.35:
            line = (f"{stamp} [pid {pid}] [thread-{rng.randint(1, 64)}] INFO  "
                    f"PedidoService - {message}: pedido {order} itens={rng.randint(1, 40)} "
                    f"total={rng.randint(1, 99999)},{rng.randint(0, 99):02d} em {ms} ms "
                    f"req={request}")
        elif shape < 0.65:
            line = (f'{{"ts":"{stamp}","pid":{pid},"pedido":{order},"itens":'
                    f'{rng.randint(1, 40)},"valor":{rng.randint(1, 99999)}.'
                    f'{rng.randint(0, 99):02d},"latencia_ms":{ms},"req":"{request}",'
                    f'"msg":"{message}"}}')
        elif shape < 0.85:
            line = (f"{stamp} {pid} {rng.randint(10**5, 10**6 - 1)} "
                    f"{rng.randint(10**9, 10**10 - 1)} {order} {ms} {rng.randint(0, 9999)} "
                    f"{rng.randint(0, 99)} status={rng.choice((200, 201, 204, 400, 404, 500))}")
        else:
            line = (f"{stamp} [pid {pid}] DEBUG Fila - lote {rng.randint(1, 99999)} "
                    f"processado: {rng.randint(1, 9999)} mensagens, {ms} ms, "
                    f"offset {rng.randint(10**11, 10**12 - 1)}, partição "
                    f"{rng.randint(0, 63)}")
    return line


REFERENCE = re.compile(r"\b\d{3}\.\d{3}\.\d{3}-\d{2}\b|\b\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}\b"
                       r"|\b\d{14}\b|\b\d{11}\b")


def reference_redact(text: str) -> tuple[str, int]:
    """The plain-re reference of performance-baseline.md: CPF and CNPJ, four shapes."""
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        digits = re.sub(r"\D", "", match.group())
        ok = (syn.cpf_is_valid_reference(digits) if len(digits) == 11
              else syn.cnpj_is_valid_reference(digits))
        if ok:
            count += 1
            return "[CPF]" if len(digits) == 11 else "[CNPJ]"
        return match.group()

    return REFERENCE.sub(replace, text), count


# The same entities as redactor's defaults, written the plain way: one alternation,
# a check per entity (mod 11, Luhn, octets, mod 97, service accounts), a rewrite.
FULL_REFERENCE = re.compile(
    r"(?P<cnpj>\b\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}\b|\b\d{14}\b)"
    r"|(?P<cpf>\b\d{3}\.\d{3}\.\d{3}-\d{2}\b|\b\d{11}\b)"
    r"|(?P<email>\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b)"
    r"|(?P<phone>(?:\+55[ ]?)?\(?\b\d{2}\)?[ ]?9?\d{4}-\d{4}\b)"
    r"|(?P<card>\b(?:\d{4}[- ]){3}\d{4}\b)"
    r"|(?P<ip>\b(?:\d{1,3}\.){3}\d{1,3}\b)"
    r"|(?P<iban>\b[A-Z]{2}\d{2}[A-Z0-9]{11,30}\b)"
    r"|(?P<user>(?i:\b(?:user|usuario|login)\b)[=:][ ]?(?P<name>[\w.-]+))"
)
SERVICE_ACCOUNTS = frozenset(u.lower() for u in SERVICE_USERS) | {"root"}


def _luhn(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _iban_ok(value: str) -> bool:
    moved = value[4:] + value[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def full_reference_redact(text: str) -> str:
    """A plain-re redactor of every default entity (see FULL_REFERENCE)."""

    def replace(match: re.Match[str]) -> str:
        kind = match.lastgroup if match.lastgroup != "name" else "user"
        value = match.group()
        digits = re.sub(r"\D", "", value)
        checks = {
            "cpf": lambda: syn.cpf_is_valid_reference(digits),
            "cnpj": lambda: syn.cnpj_is_valid_reference(digits),
            "card": lambda: _luhn(digits),
            "ip": lambda: all(int(p) < 256 for p in value.split(".")),
            "iban": lambda: _iban_ok(value),
        }
        if kind == "user":
            name = match.group("name")
            if name.lower() in SERVICE_ACCOUNTS:
                return value
            return value[:match.start("name") - match.start()] + "[USERNAME]"
        if kind in checks and not checks[kind]():
            return value
        return f"[{(kind or '').upper()}]"

    return FULL_REFERENCE.sub(replace, text)


def entity_costs(text: str, megabytes: float = 2.0) -> list[tuple[str, float, int, float]]:
    """Per entity: CPU seconds per MB, candidate regions per MB and the share of the text
    those regions cover, for an engine holding that entity alone, on the first
    ``megabytes`` of ``text`` (in 1 MB blocks)."""
    from redactor.config import DEFAULT_ENTITIES, Settings
    from redactor.engine import Redactor

    sample = text[:int(megabytes * 1_000_000)]
    size = len(sample.encode()) / 1e6
    rows = []
    for entity in DEFAULT_ENTITIES:
        engine = Redactor(Settings(entities=(entity,)))
        engine.redact(sample[:1 << 20])  # word lists and caches load outside the timing
        scanner = engine._scanner
        regions = covered = 0
        started = time.process_time()
        for start in range(0, len(sample), 1 << 20):
            block = sample[start:start + (1 << 20)]
            engine.redact(block)
        seconds = time.process_time() - started
        if scanner is not None:
            for start in range(0, len(sample), 1 << 20):
                block = sample[start:start + (1 << 20)]
                for found in scanner.regions(block).values():
                    regions += len(found)
                    covered += sum(r.end - r.start for r in found)
        rows.append((entity, seconds / size, round(regions / size), covered / len(sample)))
    return rows


#: Block sizes of the in-process scaling table (issue 13: speed must not fall as
#: blocks grow).
BLOCK_SIZES: Final = (4 << 10, 16 << 10, 64 << 10, 1 << 20)


def block_rates(text: str, megabytes: float = 2.0) -> list[tuple[int, float]]:
    """In-process MB/s (CPU time) of ``Redactor.redact`` on the first ``megabytes`` of
    ``text`` cut into blocks of each size of BLOCK_SIZES (at line breaks)."""
    from redactor.config import Settings
    from redactor.engine import Redactor

    sample = text[:int(megabytes * 1_000_000)]
    size = len(sample.encode()) / 1e6
    engine = Redactor(Settings())
    engine.redact(sample[:1 << 16])
    rows = []
    for block in BLOCK_SIZES:
        pieces = []
        start = 0
        while start < len(sample):
            cut = sample.rfind("\n", start, start + block) + 1
            end = cut if cut > start and start + block < len(sample) else start + block
            pieces.append(sample[start:end])
            start = end
        started = time.process_time()
        for piece in pieces:
            engine.redact(piece)
        rows.append((block, size / (time.process_time() - started)))
    return rows


def timed_redactor(path: Path, out: Path, jobs: int) -> tuple[float, int | None]:
    """Wall time, and peak RSS in KiB of the redactor process (GNU time), or None.

    ``getrusage(RUSAGE_CHILDREN)`` would count the pages a forked child shares with
    this process (holding the corpus) before it executes, so GNU time measures it.
    """
    files = [str(p) for p in sorted(path.iterdir())]
    command = [sys.executable, "-m", "redactor", "redact", "-q", "--jobs", str(jobs),
               "--output", str(out), *files]
    gnu_time = Path("/usr/bin/time")
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss_file:
        if gnu_time.exists():
            command = [str(gnu_time), "-f", "%M", "-o", rss_file.name, *command]
        started = time.perf_counter()
        subprocess.run(command, check=True)
        elapsed = time.perf_counter() - started
        text = rss_file.read().strip() if gnu_time.exists() else ""
    return elapsed, int(text.splitlines()[-1]) if text else None


def _rate(megabytes: float, seconds: float) -> float:
    return megabytes / seconds if seconds > 0 else float("inf")


def _startup(work: Path) -> float:
    """The CLI's start-up on a small input (imports, engine, prefilter): taken off a run's
    time to give its steady rate."""
    empty = work / "startup"
    empty.mkdir()
    (empty / "small.log").write_text("nada pessoal aqui\n" * 400, encoding="utf-8")
    # The best of three: the first run after a change compiles the prefilter's database
    # into its cache (seconds), which the runs timed after it load instead.
    times = []
    for attempt in range(3):
        seconds, _ = timed_redactor(empty, work / f"startup-out-{attempt}", 1)
        times.append(seconds)
    return min(times)


#: A family whose run on all of it takes less than this share longer than its run on
#: its first quarter gives no steady figure (runs vary by more than that).
STARTUP_SHARE: Final = 0.25


def zoo_main(megabytes: float, costs: bool, only: list[str]) -> int:
    """``--zoo``: the table of every family (see the module's docstring)."""
    import statistics

    from benchmarks import zoo

    names = only or list(zoo.FAMILIES)
    unknown = sorted(set(names) - set(zoo.FAMILIES))
    if unknown:
        print(f"unknown families: {', '.join(unknown)}", file=sys.stderr)
        return 2
    rows: list[tuple[str, float, float, float]] = []
    with tempfile.TemporaryDirectory() as work_name:
        work = Path(work_name)
        startup = _startup(work)
        print(f"redactor start-up on a small input: {startup:.2f} s (the last column takes it "
              "off the run on all of a family)", flush=True)
        print(f"{'family':<18} {'MB':>5} {'reference':>10} {'redactor':>9} {'ratio':>6}  "
              "planted left  start-up off")
        for name in names:
            family = zoo.FAMILIES[name]
            text, planted = zoo.generate(name, megabytes)
            size = len(text.encode()) / 1e6
            started = time.perf_counter()
            reference_redact(text)
            ref_rate = _rate(size, time.perf_counter() - started)
            folder = work / name
            folder.mkdir()
            (folder / f"{name}{family.extension}").write_text(text, encoding="utf-8")
            seconds, _ = timed_redactor(folder, work / f"{name}-out", 1)
            output = (work / f"{name}-out" / f"{name}{family.extension}").read_text(
                encoding="utf-8")
            left = sum(1 for value in set(planted) if value in output)
            head = text[:text.find("\n", len(text) // 4) + 1]
            head_folder = work / f"{name}-head"
            head_folder.mkdir()
            (head_folder / f"{name}{family.extension}").write_text(head, encoding="utf-8")
            head_seconds, _ = timed_redactor(head_folder, work / f"{name}-head-out", 1)
            extra = size - len(head.encode()) / 1e6
            if seconds - head_seconds < STARTUP_SHARE * seconds:
                # The runs vary by more than the extra work: no steady figure.
                print(f"{name:<18} {size:5.1f} {ref_rate:8.2f}/s {'n/a':>9} {'n/a':>6}  "
                      f"{left}  (start-up is most of the run: use a larger --mb)", flush=True)
                continue
            steady = _rate(extra, seconds - head_seconds)
            rows.append((name, ref_rate, steady, steady / ref_rate))
            print(f"{name:<18} {size:5.1f} {ref_rate:8.2f}/s {steady:7.2f}/s "
                  f"{steady / ref_rate:6.2f}  {left:>5}  "
                  f"{_rate(size, seconds - startup):7.2f}/s", flush=True)
            if costs:
                top = sorted(entity_costs(text), key=lambda r: -r[1])[:3]
                print("    costliest alone: " + ", ".join(
                    f"{entity} {1000 * cost:.0f} ms/MB ({regions} regions/MB)"
                    for entity, cost, regions, _ in top), flush=True)
    if not rows:
        print("no family ran long enough for a steady figure: use a larger --mb")
        return 0
    ratios = [row[3] for row in rows]
    worst = min(rows, key=lambda row: row[3])
    print(f"worst family: {worst[0]} at {worst[3]:.2f}x the reference; median ratio "
          f"{statistics.median(ratios):.2f}x (targets 1.0 and 1.5)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=None,
                        help="corpus size (default 50; with --zoo, 10 per family)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-reference", action="store_true",
                        help="only run redactor (for the RSS run on a large corpus)")
    parser.add_argument("--costs", action="store_true",
                        help="also print each entity's cost alone on 2 MB of the corpus")
    parser.add_argument("--blocks", action="store_true",
                        help="also print in-process MB/s by block size (4 KiB to 1 MiB)")
    parser.add_argument("--corpus", choices=("logs", "digits"), default="logs",
                        help="logs: performance-baseline.md §6; digits: digit-heavy, "
                             "accented pt-BR application logs")
    parser.add_argument("--repeat", type=int, default=1,
                        help="write the corpus this many times into the inputs (a 1 GB "
                             "memory run without generating 1 GB line by line)")
    parser.add_argument("--zoo", action="store_true",
                        help="every family of the log zoo (benchmarks/zoo.py), one table")
    parser.add_argument("--family", action="append", default=[],
                        help="with --zoo: only this family (repeatable)")
    args = parser.parse_args(argv)
    if args.zoo:
        return zoo_main(10.0 if args.mb is None else args.mb, args.costs, args.family)
    if args.mb is None:
        args.mb = 50.0

    text, planted = (digit_corpus if args.corpus == "digits" else corpus)(args.mb)
    once = len(text.encode()) / 1e6  # the references read the corpus once
    megabytes = once * args.repeat
    print(f"corpus: {megabytes:.1f} MB, {text.count(chr(10))} lines, "
          f"{len(planted)} planted values", flush=True)
    if args.costs:
        print("entity cost alone (2 MB, CPU time): entity, ms per MB, regions per MB, "
              "share of the text in regions")
        for entity, seconds, regions, share in sorted(entity_costs(text), key=lambda r: -r[1]):
            print(f"  {entity:<18} {1000 * seconds:8.1f} ms/MB {regions:7d} regions/MB "
                  f"{100 * share:6.2f} %", flush=True)
    if args.blocks:
        print("in process, by block size (2 MB, CPU time):")
        for block, rate in block_rates(text):
            print(f"  {block >> 10:5d} KiB blocks: {rate:6.2f} MB/s", flush=True)
    ref_rate = full_rate = None
    if not args.skip_reference:
        started = time.perf_counter()
        _, replaced = reference_redact(text)
        ref_rate = _rate(once, time.perf_counter() - started)
        assert replaced == len(planted), (replaced, len(planted))
        started = time.perf_counter()
        full_out = full_reference_redact(text)
        full_rate = _rate(once, time.perf_counter() - started)
        assert not any(v in full_out for v in planted)
        del full_out
        print(f"reference, CPF+CNPJ (plain re + checksum): {ref_rate:.2f} MB/s, "
              f"replaced {replaced}")
        print(f"reference, the default entities (plain re + checks): {full_rate:.2f} MB/s",
              flush=True)
    with tempfile.TemporaryDirectory() as work:
        inputs = Path(work) / "in"
        inputs.mkdir()
        parts = max(args.jobs, 1) * 2  # files to spread over processes
        lines = text.splitlines(keepends=True)
        del text
        step = len(lines) // parts + 1
        sizes: list[int] = []
        for index in range(parts):
            chunk = "".join(lines[index * step:(index + 1) * step])
            sizes.append(len(chunk))
            data = chunk.encode()
            with (inputs / f"part{index}.log").open("wb") as handle:
                for _ in range(args.repeat):
                    handle.write(data)
        del lines
        empty = Path(work) / "empty"
        empty.mkdir()
        # Large enough for the prefilter: start-up includes loading (or compiling) it.
        (empty / "small.log").write_text("nada pessoal aqui\n" * 400, encoding="utf-8")
        startup, _ = timed_redactor(empty, Path(work) / "out0", 1)
        nothing = Path(work) / "nothing"
        nothing.mkdir()
        (nothing / "empty.log").write_bytes(b"")
        empty_startup, _ = timed_redactor(nothing, Path(work) / "out3", 1)
        single, rss = timed_redactor(inputs, Path(work) / "out1", 1)
        leaked = 0
        for i in range(parts):
            with (Path(work) / "out1" / f"part{i}.log").open(encoding="utf-8") as handle:
                output = handle.read(sizes[i])  # the first copy is enough
            leaked += sum(1 for value in planted if value in output)
        parallel = None
        if args.jobs > 1:
            parallel, _ = timed_redactor(inputs, Path(work) / "out2", args.jobs)
    rate = _rate(megabytes, single)
    steady = _rate(megabytes, single - startup)
    peak = f"{rss / 1024:.0f} MiB" if rss is not None else "n/a (no GNU time)"
    print(f"redactor start-up: {empty_startup:.2f} s on an empty input, {startup:.2f} s on "
          f"7 KB")
    print(f"redactor redact, 1 process: {rate:.2f} MB/s end to end ({single:.1f} s), "
          f"{steady:.2f} MB/s without start-up; planted values left: {leaked}; "
          f"peak RSS {peak}")
    if parallel is not None:
        print(f"redactor redact, {args.jobs} processes: {_rate(megabytes, parallel):.2f} MB/s "
              f"({single / parallel:.2f}x the single process)")
    if ref_rate is not None and full_rate is not None:
        print(f"ratio to the CPF+CNPJ reference: {rate / ref_rate:.3f} end to end, "
              f"{steady / ref_rate:.3f} without start-up (target 1.0)")
        print(f"ratio to the default-entities reference: {rate / full_rate:.3f} end to end, "
              f"{steady / full_rate:.3f} without start-up")
    return 0


if __name__ == "__main__":
    sys.exit(main())
