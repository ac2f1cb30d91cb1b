"""In-process speed of the engine: start-up, warm latency on a short command, MB/s on a log.

Prints figures only; nothing here is asserted.  Batch throughput against a plain-re
reference belongs to the batch benchmark.

    python benchmarks/engine_speed.py [--mb 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import synthetic as syn


def corpus(megabytes: float, seed: int = 7) -> str:
    """Log lines in the mix of performance-baseline.md §6 (about 2 % planted, 2 % decoys)."""
    rng = random.Random(seed)
    lines: list[str] = []
    size = 0
    while size < megabytes * 1_000_000:
        draw = rng.random()
        stamp = f"2024-11-{rng.randint(1, 28):02d} 10:{rng.randint(0, 59):02d}:00.000"
        if draw < 0.02:
            cpf = syn.cpf_forms(syn.random_cpf(rng))["masked"]
            line = f"{stamp} INFO c.e.o.CustomerApi - cadastro atualizado cliente CPF {cpf} uf=SP"
        elif draw < 0.04:
            line = (f"{stamp} INFO NotifyService - SMS enviado telefone={syn.mobile_not_cpf(rng)}"
                    f" protocolo={syn.mobile_not_cpf(rng)} status=OK")
        elif draw < 0.6:
            line = (f"{stamp} INFO [http-nio-8080-exec-{rng.randint(1, 9)}] c.e.o.OrderService - "
                    f"Order 45{rng.randint(0, 10**8):08d} created for customer "
                    f"00000{rng.randint(0, 99999):05d}, total={rng.randint(1, 9999)}.00 BRL")
        else:
            line = (f"202411{rng.randint(1, 28):02d} 101500 SAPMV45A VA01 USER=BATCH "
                    f"MSG=V1 311 Sales document {rng.randint(0, 10**10):010d} saved")
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=5.0)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import redactor"], check=True)
    import_light = time.perf_counter() - started

    started = time.perf_counter()
    from redactor import Settings
    from redactor.engine import Redactor

    engine = Redactor(Settings())
    build = time.perf_counter() - started

    command = ("psql -h db01 -c \"SELECT * FROM clientes WHERE cpf = '529.982.247-25' "
               "OR cpf = '52998224725'\"").ljust(200)
    for _ in range(5):
        engine.redact(command)
    times = []
    for _ in range(500):
        started = time.perf_counter()
        engine.redact(command)
        times.append(time.perf_counter() - started)
    times.sort()

    text = corpus(args.mb)
    started = time.perf_counter()
    result = engine.redact(text)
    elapsed = time.perf_counter() - started
    megabytes = len(text.encode()) / 1_000_000

    print(f"python -c 'import redactor' (whole process): {import_light * 1000:.0f} ms")
    print(f"engine import + build (Presidio, no-op NLP):  {build:.2f} s")
    print(f"redact 200-char command, warm: median {statistics.median(times) * 1000:.3f} ms, "
          f"p90 {times[int(len(times) * 0.9)] * 1000:.3f} ms (500 calls)")
    print(f"redact {megabytes:.1f} MB log in one call: {elapsed:.2f} s = "
          f"{megabytes / elapsed:.2f} MB/s, {len(result.findings)} findings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
