"""Redaction on Apache Spark: columns, data frames, text files, and the CLI's file jobs.

Install with ``pip install 'redactor-br[spark]'`` (PySpark and what its Arrow-based
functions need); nothing here imports PySpark until a function is called.

The configuration travels with the job, not through files that only the driver has:
:func:`job_settings` reads the discovered configuration (or a :class:`Settings`, or
TOML text) on the driver, inlines the known-users files and the hash key, and checks
all of it there, so a broken configuration fails before any task starts.  The result,
a :class:`JobSettings`, is pickled into each task's closure: it never enters the Spark
configuration, the UI or the event log, and its ``repr`` shows counts only.  Each
executor Python process builds one engine per configuration, on first use, and keeps
it for the tasks that follow (PySpark reuses its Python workers).

Rows are short, so they are not redacted one by one: each Arrow batch is rendered as
JSON lines (``{"<column>": value}``: the column name is context, as a JSON key is),
the prefilter scans the whole block once, and only the rows it hits go through the
recognizers: exactly what ``redact_json`` gives for each row alone (the batch JSON
Lines path rests on the same fact).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from redactor.config import Settings, load_settings, settings_from_toml
from redactor.errors import EngineError, UsageError

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame, SparkSession

    from redactor.batch import FileReport, Job, Options
    from redactor.engine import Redactor, StreamNames
    from redactor.results import Finding, JsonRedaction

__all__ = ["FINDINGS_COLUMN", "JobSettings", "SparkError", "java_runtime", "job_settings",
           "redact_column", "redact_dataframe", "redact_files", "redact_text_files",
           "spark_session"]

#: The column :func:`redact_dataframe` adds with ``findings=True``: counts per entity type.
FINDINGS_COLUMN: Final = "findings"
_INSTALL_HINT: Final = "install the extra: pip install 'redactor-br[spark]'"


class SparkError(EngineError):
    """Spark could not run the job (no Java, a session that does not start, a task that
    failed).  The message names files and error classes, never a value."""


@dataclass(frozen=True, eq=True)
class JobSettings:
    """A configuration that travels with a Spark job: everything the engine needs, with
    no path that only the driver can read.  Build it with :func:`job_settings`."""

    settings: Settings
    hash_key: bytes | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        return (f"JobSettings(entities={len(self.settings.entities)}, "
                f"known_users={len(self.settings.known_users)}, "
                f"hash_key={'set' if self.hash_key else 'unset'})")


def job_settings(settings: Settings | str | JobSettings | None = None, *,
                 known_users: Iterable[str] = (), hash_key: str | bytes | None = None,
                 check_engine: bool = True) -> JobSettings:
    """The configuration a Spark job ships to its executors, read and checked here.

    ``settings``: None (the configuration this process discovers, like ``redactor
    redact``), a :class:`Settings`, TOML text (trusted like the user file), or a
    :class:`JobSettings` (returned as it is, ``known_users``/``hash_key`` added).
    ``known_users`` adds user names to redact; ``hash_key`` is the token key of the
    ``hash`` and ``pseudonym`` operators (default: the user's pseudonym key, read here:
    redactor.pseudonyms.keys).  Executors write tokens only: the vault stays on the
    user's machine, so a job's tokens cannot be turned back into values.  With
    ``check_engine`` the engine is built once here, so what only it can reject (a
    placeholder, a spaCy model) fails on the driver too.
    """
    from redactor import config

    if isinstance(settings, JobSettings):
        base, key = settings.settings, settings.hash_key
    else:
        if settings is None:
            base = load_settings()
        elif isinstance(settings, str):
            base = settings_from_toml(settings)
        elif isinstance(settings, Settings):
            base = settings
        else:
            raise UsageError(f"settings must be Settings, TOML text or JobSettings, not "
                             f"{type(settings).__name__}")
        from redactor.engine.build import token_key

        key = None if hash_key is not None else token_key(base, os.environ)
        users = config.read_known_users(base.known_users_files)
        base = replace(base, known_users=(*base.known_users, *users), known_users_files=(),
                       hash_key_file=None, vault=False)
    names = [known_users] if isinstance(known_users, str) else known_users
    extra = tuple(u.strip() for u in names if isinstance(u, str) and u.strip())
    if extra:
        base = replace(base, known_users=(*base.known_users, *extra))
    if hash_key is not None:
        key = hash_key.encode("utf-8") if isinstance(hash_key, str) else bytes(hash_key)
    shipped = JobSettings(base, key or None)
    if check_engine:
        _engine(shipped)  # also checks the key's length and every placeholder
    return shipped


# ----------------------------------------------------------------- executor side

_ENGINES: dict[JobSettings, Redactor] = {}
_ENGINES_LOCK = threading.Lock()


def _engine(shipped: JobSettings) -> Redactor:
    """This process's engine for ``shipped``, built once (executors keep it across tasks)."""
    engine = _ENGINES.get(shipped)
    if engine is None:
        with _ENGINES_LOCK:
            engine = _ENGINES.get(shipped)
            if engine is None:
                from redactor.engine import Redactor

                if len(_ENGINES) >= 4:
                    _ENGINES.clear()
                engine = Redactor(shipped.settings, environ={}, hash_key=shipped.hash_key)
                _ENGINES[shipped] = engine
    return engine


def redact_documents(engine: Redactor, documents: Sequence[Any], *,
                     entities: Sequence[str] | None = None,
                     numbers: str | None = None) -> list[JsonRedaction | None]:
    """``engine.redact_json(document)`` for each document, None where it would find
    nothing: one prefilter scan over the texts redact_json would analyse decides which
    rows go through the recognizers (as the batch JSON Lines reader decides).
    ``numbers`` (``"placeholder"`` or ``"masked"``) redacts keys and numbers too, as
    batch JSON files are (``redact_json(keys_and_numbers=True, numbers=...)``)."""
    from redactor.batch import keys_lift
    from redactor.engine.jsonredact import analysed_texts

    # The texts redact_json would analyse of each document whose keys lift nothing
    # (one whose keys lift is analysed whatever a scan says), in one scan: a document
    # none of whose texts a trigger hits has nothing to redact.
    scanned: list[tuple[int, list[str]]] = []
    for number, document in enumerate(documents):
        if keys_lift(engine, document):
            continue
        texts = analysed_texts(document)
        if texts is not None:
            scanned.append((number, texts))
    clean = [False] * len(documents)
    hit = engine.pieces_hit([piece for _, texts in scanned for piece in texts]) \
        if scanned else None
    if hit is not None:
        index = 0
        for number, texts in scanned:
            clean[number] = not any(i in hit for i in range(index, index + len(texts)))
            index += len(texts)
    results: list[JsonRedaction | None] = []
    for number, document in enumerate(documents):
        if clean[number]:
            results.append(None)
            continue
        if numbers is None:
            result = engine.redact_json(document, entities=entities)
        else:
            result = engine.redact_json(document, entities=entities, keys_and_numbers=True,
                                        numbers=numbers)
        results.append(result if result.findings else None)
    return results


def _require_pyspark() -> None:
    try:
        import pyarrow  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError:
        raise UsageError(f"Spark support is not installed: {_INSTALL_HINT}") from None


def _column_name(col: Column | str) -> str:
    """The name a column reads as context: any name (``senha-db``, ``rg cliente``), the
    field of ``a.b``, "" for expressions."""
    if isinstance(col, str):
        text = col
    else:
        try:
            text = str(getattr(col, "_jc").toString())  # noqa: B009 - private, typed as Column
        except Exception:  # Spark Connect columns have no JVM side: no context then
            return ""
    text = text.strip()
    if len(text) > 1 and text.startswith("`") and text.endswith("`"):
        name = text[1:-1].replace("``", "`")  # a quoted name, dots and all
    else:
        name = text.rsplit(".", 1)[-1]  # a struct's field reads as its own name
    # An expression (a function call) has no name to read.
    return name if name and "(" not in name else ""


def redact_column(col: Column | str, *, settings: Settings | str | JobSettings | None = None,
                  entities: Sequence[str] | None = None) -> Column:
    """A string column with personal data replaced (null stays null); a column of
    another type is read as its string form, so the result is a string column.

    The column's name is context for its values, as a JSON key is (``cpf``, ``nome``);
    ``entities`` limits what is replaced.  Vectorised: one pandas UDF call per Arrow
    batch, the prefilter over the whole batch.
    """
    _require_pyspark()
    import pandas as pd
    from pyspark.sql import functions as F
    from pyspark.sql.pandas.functions import pandas_udf
    from pyspark.sql.types import BinaryType, StringType

    shipped = job_settings(settings)
    label = _column_name(col)
    only = tuple(entities) if entities is not None else None
    if only is not None:
        unknown = sorted(set(only) - set(shipped.settings.entities))
        if unknown:
            raise UsageError(f"unknown or disabled entities: {', '.join(unknown)}")

    def redact(values: pd.Series) -> pd.Series:
        from redactor.batch import _decode, _encode

        engine = _engine(shipped)
        present = [i for i, v in enumerate(values) if isinstance(v, bytes | bytearray) and v]
        texts = {i: _decode(bytes(values.iat[i])) for i in present}
        results = redact_documents(engine, [{label: texts[i]} for i in present],
                                   entities=only)
        out = values.copy()
        for i, result in zip(present, results, strict=True):
            if result is not None:
                out.iat[i] = _encode(result.value[label])
        return out

    # PySpark reads the kind of UDF from the hints; this module's are strings.
    redact.__annotations__ = {"values": pd.Series, "return": pd.Series}
    udf = pandas_udf(redact, BinaryType())  # type: ignore[call-overload, unused-ignore]
    # Through bytes, both ways: a value that is not UTF-8 (Spark lets a string hold one)
    # is neither decoded by Arrow nor quoted in its error.  Casting to string keeps a
    # string's or a binary's bytes and gives any other type its text (a CPF kept as a
    # number is found too); the result is a string column.
    source = F.col(col) if isinstance(col, str) else col
    target = source.cast(StringType()).cast(BinaryType())
    return udf(target).cast(StringType()).alias(label or "redacted")  # type: ignore[no-any-return, unused-ignore]


# ----------------------------------------------------------------- data frames

def _has_strings(data_type: Any) -> bool:
    from pyspark.sql.types import ArrayType, MapType, StringType, StructType

    if isinstance(data_type, StringType):
        return True
    if isinstance(data_type, StructType):
        return any(_has_strings(f.dataType) for f in data_type.fields)
    if isinstance(data_type, ArrayType):
        return _has_strings(data_type.elementType)
    if isinstance(data_type, MapType):
        return _has_strings(data_type.valueType)
    return False


def _twin(arrow_type: Any) -> Any:
    """``arrow_type`` with binary in place of every string (keys included): the same
    buffers, read without UTF-8 validation, so bytes that are not UTF-8 (which Spark
    lets a string hold) reach Python as bytes instead of failing its decoding."""
    import pyarrow as pa

    if pa.types.is_string(arrow_type):
        return pa.binary()
    if pa.types.is_large_string(arrow_type):
        return pa.large_binary()
    if pa.types.is_struct(arrow_type):
        return pa.struct([arrow_type.field(i).with_type(_twin(arrow_type.field(i).type))
                          for i in range(arrow_type.num_fields)])
    if pa.types.is_map(arrow_type):
        return pa.map_(_twin(arrow_type.key_type), arrow_type.item_field.with_type(
            _twin(arrow_type.item_type)), keys_sorted=arrow_type.keys_sorted)
    if pa.types.is_large_list(arrow_type):
        return pa.large_list(arrow_type.value_field.with_type(_twin(arrow_type.value_type)))
    if pa.types.is_list(arrow_type):
        return pa.list_(arrow_type.value_field.with_type(_twin(arrow_type.value_type)))
    return arrow_type


def _text(value: bytes | bytearray) -> str:
    from redactor.batch import _decode

    return _decode(bytes(value))


def _project(value: Any, arrow_type: Any) -> Any:
    """The JSON shape of an Arrow value read through its :func:`_twin`: its strings
    (decoded; bytes that are not UTF-8 kept as escapes), everything else as null."""
    import pyarrow as pa

    if value is None:
        return None
    if pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type):
        return _text(value)
    if pa.types.is_struct(arrow_type):
        return {arrow_type.field(i).name: _project(value.get(arrow_type.field(i).name),
                                                    arrow_type.field(i).type)
                for i in range(arrow_type.num_fields)}
    if pa.types.is_map(arrow_type):
        return {_key(k): _project(v, arrow_type.item_type) for k, v in value}
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        return [_project(v, arrow_type.value_type) for v in value]
    return None


def _key(key: Any) -> str:
    return _text(key) if isinstance(key, bytes | bytearray) else str(key)


def _restore(value: Any, redacted: Any, arrow_type: Any) -> Any:
    """``value`` (read through its :func:`_twin`) with its strings taken from
    ``redacted`` (its :func:`_project`, redacted), encoded back to bytes."""
    import pyarrow as pa

    from redactor.batch import _encode

    if value is None:
        return None
    if pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type):
        return _encode(redacted)
    if pa.types.is_struct(arrow_type):
        # By position: the projection holds every field, in order, whatever its name
        # became.
        fields = [arrow_type.field(i) for i in range(arrow_type.num_fields)]
        return {f.name: _restore(value.get(f.name), r, f.type)
                for f, r in zip(fields, redacted.values(), strict=True)}
    if pa.types.is_map(arrow_type):
        # A key that held a value is redacted too (batch JSON files redact keys).
        return [(_restore_key(k, redacted_key), _restore(v, r, arrow_type.item_type))
                for (k, v), (redacted_key, r) in zip(value, redacted.items(), strict=True)]
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        return [_restore(v, r, arrow_type.value_type)
                for v, r in zip(value, redacted, strict=True)]
    return value


def _restore_key(key: Any, redacted: str) -> Any:
    from redactor.batch import _encode

    if isinstance(key, bytes | bytearray):
        return _encode(redacted)
    if redacted == _key(key):
        return key
    # A number key that held an identifier: the same type, every digit a 9.
    digits = sum(c.isdigit() for c in str(key))
    return type(key)("9" * max(digits, 1))


def _numeric(data_type: Any) -> bool:
    """Can a column of this type hold an identifier written as a number?  64- and 32-bit
    integers, floats, and decimals without a fraction (a landline with its area code
    fits in 32 bits; smaller types hold five digits at most)."""
    from pyspark.sql.types import DecimalType, DoubleType, FloatType, IntegerType, LongType

    if isinstance(data_type, DecimalType):
        return bool(data_type.scale == 0)  # bool: mypy runs without pyspark too
    return isinstance(data_type, LongType | IntegerType | DoubleType | FloatType)


def _number_text(value: Any) -> str:
    return str(int(value)) if isinstance(value, Decimal) else str(value)


def _redact_batch(engine: Redactor, batch: Any, columns: Sequence[str],
                  findings: bool, *, numeric: Sequence[str] = (),
                  numbers: str = "placeholder") -> Any:
    import pyarrow as pa

    names = batch.schema.names
    indexes = [names.index(c) for c in columns]
    number_indexes = [names.index(c) for c in numeric]
    types = {i: batch.schema.field(i).type for i in indexes}
    values = {i: batch.column(i).view(_twin(types[i])).to_pylist() for i in indexes}
    for i in number_indexes:
        values[i] = [int(v) if isinstance(v, Decimal) else v for v in batch.column(i).to_pylist()]
    documents = []
    order = sorted([*indexes, *number_indexes])
    for row in range(batch.num_rows):
        documents.append({names[i]: values[i][row] if i in number_indexes
                          else _project(values[i][row], batch.schema.field(i).type)
                          for i in order if values[i][row] is not None})
    results = redact_documents(engine, documents, numbers=numbers)
    changed: set[int] = set()
    counts: list[dict[str, int]] = []
    for row, result in enumerate(results):
        if result is None:
            counts.append({})
            continue
        counts.append(dict(Counter(f.entity_type for f in result.findings)))
        present = [i for i in order if values[i][row] is not None]
        for i, redacted in zip(present, result.value.values(), strict=True):
            if i in number_indexes:
                if redacted != values[i][row]:
                    values[i][row] = redacted
                    changed.add(i)
            elif redacted != documents[row][names[i]]:
                values[i][row] = _restore(values[i][row], redacted, batch.schema.field(i).type)
                changed.add(i)
    arrays = []
    for i in range(batch.num_columns):
        if i in number_indexes and numbers == "placeholder":
            # The column is a string column (the output schema says so): a number kept
            # is its text.
            arrays.append(pa.array([v if v is None or isinstance(v, str) else _number_text(v)
                                    for v in values[i]], type=pa.string()))
        elif i in number_indexes and i in changed:
            kind = batch.schema.field(i).type
            arrays.append(pa.array([Decimal(v) if pa.types.is_decimal(kind) and v is not None
                                    else v for v in values[i]], type=kind))
        elif i in changed:
            arrays.append(pa.array(values[i], type=_twin(types[i])).view(types[i]))
        else:
            arrays.append(batch.column(i))
    fields = [f.with_type(pa.string()) if i in number_indexes and numbers == "placeholder"
              else f for i, f in enumerate(batch.schema)]
    if findings:
        arrays.append(pa.array([list(c.items()) for c in counts],
                               type=pa.map_(pa.string(), pa.int64())))
        fields.append(pa.field(FINDINGS_COLUMN, pa.map_(pa.string(), pa.int64())))
    return pa.RecordBatch.from_arrays(arrays, schema=pa.schema(fields))


def redact_dataframe(df: DataFrame, columns: Sequence[str] | None = None, *,
                     settings: Settings | str | JobSettings | None = None,
                     findings: bool = False,
                     numbers: Literal["placeholder", "masked"] = "placeholder") -> DataFrame:
    """``df`` with personal data replaced in its string and number columns.

    ``columns``: which columns (default: every column holding strings, nested structs,
    arrays and map values and keys included, and every column of 32- or 64-bit
    integers, floats or decimals without a fraction).  Non-string fields inside nested
    columns are left as they are.  Each row is one document, redacted as a line of a
    JSON Lines file is: column and field names are context, a map key that holds a
    value is redacted, a person's name found in one column is redacted in the row's
    other columns too, and a number whose digits are an identifier (a CPF kept as a
    ``bigint``, or as a ``double`` where the column has nulls) is redacted.
    ``numbers``: ``"placeholder"`` (as batch files) makes each such number column a
    string column, the identifiers their placeholder and other numbers their text;
    ``"masked"`` keeps the column's type and writes every digit of an identifier as
    a 9.  ``findings`` adds a ``findings`` column: counts per entity type for the row
    (types and counts, never values).
    """
    _require_pyspark()
    from pyspark.sql.types import LongType, MapType, StringType, StructField, StructType

    from redactor.engine import JSON_NUMBERS

    if numbers not in JSON_NUMBERS:
        raise UsageError(f"numbers must be one of {', '.join(JSON_NUMBERS)}, not {numbers!r}")
    shipped = job_settings(settings)
    by_name = {f.name: f for f in df.schema.fields}
    if columns is None:
        chosen = [f.name for f in df.schema.fields if _has_strings(f.dataType)]
        numeric = [f.name for f in df.schema.fields if _numeric(f.dataType)]
    else:
        missing = [c for c in columns if c not in by_name]
        if missing:
            raise UsageError(f"no such column(s): {', '.join(missing)}")
        chosen = [c for c in columns if _has_strings(by_name[c].dataType)]
        numeric = [c for c in columns if _numeric(by_name[c].dataType)]
    if findings and any(name.lower() == FINDINGS_COLUMN for name in by_name):
        raise UsageError(f"the data frame already has a column {FINDINGS_COLUMN!r}")
    schema = df.schema
    if numeric and numbers == "placeholder":
        schema = StructType([StructField(f.name, StringType(), f.nullable, f.metadata)
                             if f.name in numeric else f for f in schema.fields])
    if findings:
        schema = StructType([*schema.fields, StructField(
            FINDINGS_COLUMN, MapType(StringType(), LongType(), valueContainsNull=False),
            nullable=False)])
    if not chosen and not numeric and not findings:
        return df

    def redact(batches: Iterator[Any]) -> Iterator[Any]:
        engine = _engine(shipped)
        for batch in batches:
            yield _redact_batch(engine, batch, chosen, findings, numeric=numeric,
                                numbers=numbers)

    return df.mapInArrow(redact, schema)


# ----------------------------------------------------------------- text files

def _keep_lines(engine: Redactor, text: str, findings: Sequence[Finding]) -> str:
    """``engine.apply(text, findings)`` where each finding's replacement is followed by
    the line breaks its value held (a private key's block becomes its placeholder and
    empty lines), so the line count is kept and nothing of the value is left."""
    out: list[str] = []
    cursor = 0
    for finding in findings:
        value = text[finding.start:finding.end]
        moved = replace(finding, start=0, end=len(value))
        replaced = engine.apply(value, [moved])
        missing = value.count("\n") - replaced.count("\n")
        if missing < 0:
            replaced = replaced.replace("\n", " ")
            missing = value.count("\n")
        out += [text[cursor:finding.start], replaced, "\n" * missing]
        cursor = finding.end
    out.append(text[cursor:])
    return "".join(out)


def _redact_block(engine: Redactor, block: str, fmt: str, names: StreamNames,
                  numbers: str = "placeholder") -> str:
    """One batch of a partition's lines (joined by ``\n``), redacted as the local command
    redacts a block, with the line count kept: a finding that covers line breaks (a
    private key's block) keeps them after its placeholder."""
    from redactor.batch import FileReport, _redact_lines
    from redactor.engine import StreamNames

    if fmt == "jsonl":
        # Each JSON line is redacted on its own (a line that is not JSON, as text): no
        # finding crosses a line break.  User names go on from line to line.
        before = StreamNames(set(names.usernames), set(names.caseless_usernames),
                             set(names.person_words))
        out = _redact_lines(engine, block + "\n", FileReport("<spark>"), numbers=numbers,
                            names=names)[:-1]
        if out.count("\n") == block.count("\n"):
            return out
        names.usernames, names.caseless_usernames = before.usernames, before.caseless_usernames
        names.person_words = before.person_words
        return "\n".join(_redact_lines(engine, line + "\n", FileReport("<spark>"),
                                       numbers=numbers, names=names)[:-1]
                         for line in block.split("\n"))
    findings = engine.analyze(block, names=names)
    if any("\n" in block[f.start:f.end] for f in findings):
        return _keep_lines(engine, block, findings)
    return engine.apply(block, findings)


def redact_text_files(spark: SparkSession, input: str | Sequence[str], output: str, *,
                      format: Literal["text", "jsonl"] = "text",
                      settings: Settings | str | JobSettings | None = None,
                      compression: str | None = None, mode: str = "errorifexists",
                      numbers: Literal["placeholder", "masked"] = "placeholder") -> None:
    """Redact text or JSON Lines files (gzip is read as it is) into ``output``, a folder of
    one file per input partition (``compression="gzip"`` to write ``.gz``).

    Lines are read and written as bytes (``\\n`` ends a line, so a ``\\r`` before it is
    kept); bytes that are not UTF-8 pass through.  The line count is kept: a finding
    that covers line breaks (a private key's block) is replaced by its placeholder
    followed by as many empty lines.  What differs from
    ``redactor redact``: a user name found in a partition is carried to that
    partition's later lines only, and every line, the last included, ends with ``\\n``.
    ``numbers`` (JSON Lines): an identifier written as a number becomes the placeholder
    string, or with ``"masked"`` a number of the same type, every digit a 9 (as
    ``redactor redact --json-numbers``).
    """
    _require_pyspark()
    import pyarrow as pa
    from pyspark.sql import functions as F

    if format not in ("text", "jsonl"):
        raise UsageError(f"format must be 'text' or 'jsonl', not {format!r}")
    from redactor.engine import JSON_NUMBERS

    if numbers not in JSON_NUMBERS:
        raise UsageError(f"numbers must be one of {', '.join(JSON_NUMBERS)}, not {numbers!r}")
    shipped = job_settings(settings)
    paths = [input] if isinstance(input, str) else list(input)
    # A corrupt or vanished input fails the job, whatever the session's defaults say:
    # skipping it would write a partial output as if complete.
    frame = (spark.read.option("lineSep", "\n").option("ignoreCorruptFiles", "false")
             .option("ignoreMissingFiles", "false").text(paths))
    raw = frame.select(F.col("value").cast("binary").alias("value"))

    def redact(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow.compute as pc

        from redactor.batch import _decode, _encode
        from redactor.engine import StreamNames

        engine = _engine(shipped)
        names = StreamNames()  # names found so far in this partition
        for batch in batches:
            lines = batch.column(0)
            if len(lines) == 0:
                yield batch
                continue
            # The batch as one block, joined and split in Arrow, decoded and encoded
            # once: a line break is never part of a UTF-8 sequence, so this is what
            # each line alone gives.
            whole = pa.ListArray.from_arrays(pa.array([0, len(lines)], pa.int32()), lines)
            block = _decode(pc.binary_join(whole, b"\n")[0].as_py())
            out = _encode(_redact_block(engine, block, format, names, numbers),
                          json_text=format == "jsonl")
            split = pc.split_pattern(pa.array([out], pa.binary()), b"\n").flatten()
            yield pa.RecordBatch.from_arrays([split], names=["value"])

    redacted = raw.mapInArrow(redact, raw.schema).select(F.col("value").cast("string"))
    writer = redacted.write.mode(mode).option("lineSep", "\n")
    if compression:
        writer = writer.option("compression", compression)
    try:
        writer.text(output)
    except Exception as exc:
        from redactor.batch import Names

        raise _job_failed(exc, output, Names(_engine(shipped)).path) from None


_URL = re.compile(r"\b(?:file|hdfs|s3a?|gs|abfss?|wasbs?|viewfs):/[^\s\"'<>]+")


def _job_failed(exc: BaseException, output: str,
                shown: Callable[[str], str] | None = None) -> SparkError:
    """The failure of a job, naming the input it was reading when Spark says which (its
    own message is not repeated: it may quote a line).  ``shown`` prints a path
    (default: batch.safe_path with the configured engine)."""
    from urllib.parse import unquote, urlsplit

    if shown is None:
        from redactor.api import get_redactor
        from redactor.batch import Names

        shown = Names(get_redactor()).path
    kind = type(exc).__name__
    message = str(exc)
    if "PATH_ALREADY_EXISTS" in message:
        return SparkError(f"{shown(output)}: already exists; remove it or pass "
                          "mode='overwrite'")
    target = urlsplit(output).path if "://" in output else str(Path(output).absolute())
    for found in _URL.findall(message):
        path = unquote(urlsplit(found.rstrip(".,;:)]")).path)
        if path and not (path == target or path.startswith(target.rstrip("/") + "/")):
            return SparkError(f"{shown(path)}: cannot be read ({kind}); the job failed and "
                              "Spark's output commit left no part file")
    return SparkError(f"the Spark job failed ({kind})")


# ----------------------------------------------------------------- sessions, CLI jobs

def java_runtime() -> str | None:
    """The ``java`` Spark would start (JAVA_HOME first), if there is one that runs."""
    home = os.environ.get("JAVA_HOME")
    candidate = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    if not candidate or not os.access(candidate, os.X_OK):
        return None
    try:
        done = subprocess.run([candidate, "-version"], capture_output=True, text=True,  # noqa: S603
                              timeout=60, stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = (done.stderr or done.stdout).strip().splitlines()
    # "Picked up JAVA_TOOL_OPTIONS: ..." may come first.
    named = [line for line in lines if ' version "' in line]
    return (named or lines)[0] if done.returncode == 0 and lines else None


def spark_session(master: str = "local[*]", *, app_name: str = "redactor",
                  config: dict[str, str] | None = None) -> SparkSession:
    """A session for redactor's jobs: UI and console progress bar off; in local mode
    bound to 127.0.0.1 and running this Python on the executors."""
    _require_pyspark()
    if java_runtime() is None:
        raise SparkError("Spark needs a Java runtime (17 or 21): none runs from JAVA_HOME "
                         "or PATH")
    from pyspark.sql import SparkSession

    local = master.startswith("local")
    if local:
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (SparkSession.builder.master(master).appName(app_name)
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false"))
    logging = Path(__file__).with_name("spark-log4j2.properties")
    if logging.is_file() and "spark.driver.extraJavaOptions" not in (config or {}):
        builder = builder.config("spark.driver.extraJavaOptions",
                                 f"-Dlog4j2.configurationFile=file:{logging}")
    if local:
        builder = (builder.config("spark.driver.host", "127.0.0.1")
                   .config("spark.driver.bindAddress", "127.0.0.1"))
    for key, value in (config or {}).items():
        builder = builder.config(key, value)
    try:
        session = builder.getOrCreate()
    except Exception as exc:
        raise SparkError(f"Spark did not start ({type(exc).__name__}); is the master "
                         "reachable and Java 17 or 21 installed?") from None
    session.sparkContext.setLogLevel("ERROR")
    return session


def _run_file(job: Job, shipped: JobSettings, options: Options) -> FileReport:
    from redactor.batch import process_file

    return process_file(_engine(shipped), job.source, job.destination, job.fmt,
                        options=options, shown=job.shown or None)


class _StageProgress:
    """One line on stderr per stage change: its id, finished and total tasks."""

    def __init__(self, spark: SparkSession, write: Callable[[str], None]) -> None:
        self._tracker = spark.sparkContext.statusTracker()
        self._write = write
        self._stop = threading.Event()
        self._seen: dict[int, tuple[int, int]] = {}
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> _StageProgress:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._poll()

    def _loop(self) -> None:
        while not self._stop.wait(1.0):
            self._poll()

    def _poll(self) -> None:
        try:
            active = list(self._tracker.getActiveStageIds())
            for stage_id in dict.fromkeys([*self._seen, *active]):
                info = self._tracker.getStageInfo(stage_id)
                if info is None:
                    continue
                state = (info.numCompletedTasks, info.numTasks)
                if self._seen.get(stage_id) != state:
                    self._seen[stage_id] = state
                    self._write(f"redactor: spark stage {stage_id}: {state[0]}/{state[1]} "
                                "task(s) done")
        except Exception:  # progress is best effort; the job's own errors still surface
            return


#: Tasks per core :func:`redact_files` aims at: enough for the longest file not to hold
#: up the others, few enough that PySpark's cost per task (tens of ms) stays small.
TASKS_PER_CORE: Final = 2


def _bins(sizes: Sequence[int], count: int) -> list[list[int]]:
    """Indexes of ``sizes`` in ``count`` groups of similar total size, largest first in
    each (largest file to the least loaded group: the longest-processing-time rule)."""
    bins: list[list[int]] = [[] for _ in range(max(1, min(count, len(sizes))))]
    loads = [0] * len(bins)
    for index in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        target = loads.index(min(loads))
        bins[target].append(index)
        loads[target] += sizes[index]
    return sorted((b for b in bins if b), key=lambda b: -sum(sizes[i] for i in b))


def redact_files(jobs: list[Job], *, master: str = "local[*]",
                 settings: Settings | str | JobSettings | None = None,
                 options: Options | None = None, progress: bool = False,
                 spark: SparkSession | None = None) -> list[FileReport]:
    """The CLI's ``--engine spark``: the local command's per-file redaction (same output,
    atomic writes) run in Spark tasks, so inputs and outputs must be on a file system
    every executor sees (local mode, a shared mount).  Without ``spark``, the session
    this process already runs is used and left running, else one is started for the
    call (``master``) and stopped.  Files are grouped into about
    :data:`TASKS_PER_CORE` tasks per core of similar total size (one file per task
    when there are fewer files); each task redacts its files one after the other."""
    from redactor.batch import DEFAULT_OPTIONS, FileReport, Names

    shipped = job_settings(settings)
    chosen = DEFAULT_OPTIONS if options is None else options
    if not jobs:
        return []
    if not all(job.shown for job in jobs):
        # Paths are printed and reported with the names in them redacted (batch.plan's).
        names = Names(_engine(shipped))
        jobs = [job if job.shown else replace(job, shown=names.path(job.source))
                for job in jobs]
    active = _active_session() if spark is None else None
    owned = spark is None and active is None
    session = spark or active or spark_session(master)
    # Executors resolve a relative path against their own working folder: ship absolute
    # ones; reports and messages name each input as the caller did (job.shown).
    absolute_jobs = [replace(job, source=job.source.absolute(),
                            destination=None if job.destination is None
                            else job.destination.absolute()) for job in jobs]
    try:
        cores = max(1, session.sparkContext.defaultParallelism)
        groups = _bins([_size(job.source) for job in jobs], cores * TASKS_PER_CORE)
        work = [[(i, absolute_jobs[i]) for i in group] for group in groups]
        rdd = session.sparkContext.parallelize(work, numSlices=len(work))

        def run(group: list[tuple[int, Job]]) -> list[tuple[int, FileReport]]:
            return [(index, _run_file(job, shipped, chosen)) for index, job in group]

        def say(line: str) -> None:
            print(line, file=sys.stderr, flush=True)

        started = time.monotonic()
        try:
            if progress:
                say(f"redactor: spark: {len(jobs)} file(s) in {len(work)} task(s) on "
                    f"{cores} core(s)")
                with _StageProgress(session, say):
                    done = rdd.flatMap(run).collect()
            else:
                done = rdd.flatMap(run).collect()
        except Exception as exc:
            raise SparkError(f"the Spark job failed ({type(exc).__name__})") from None
        if progress:
            say(f"redactor: spark: {len(jobs)} file(s) in {time.monotonic() - started:.1f} s")
    finally:
        if owned:
            session.stop()
    reports: list[FileReport | None] = [None] * len(jobs)
    for index, report in done:
        report.path = jobs[index].shown
        report.output = jobs[index].shown_output or None
        reports[index] = report
    return [r if r is not None else FileReport(jobs[i].shown, error="no report")
            for i, r in enumerate(reports)]


def _active_session() -> SparkSession | None:
    """The session this process already runs, if any (it is used, and left running)."""
    from pyspark.sql import SparkSession

    return SparkSession.getActiveSession()


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
