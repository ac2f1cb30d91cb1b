"""JSON Lines are parsed by one decoder per thread (issue 33: json.loads built a decoder
per line): the values, and the refusals, must be json.loads's with the same hooks."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redactor import batch

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
                    st.floats(allow_nan=False, allow_infinity=False))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)),
    max_leaves=12)


def _expected(text: str) -> Any:
    return json.loads(text, parse_float=batch._json_number,
                      object_pairs_hook=batch._json_members)


def _same(got: Any, expected: Any) -> None:
    assert json.dumps(got, default=str) == json.dumps(expected, default=str)
    assert batch.dumps_keeping_numbers(got) == batch.dumps_keeping_numbers(expected)


@settings(max_examples=300, deadline=None)
@given(value=VALUES)
def test_a_line_is_read_as_json_loads_reads_it(value: Any) -> None:
    text = json.dumps(value)
    _same(batch.loads_keeping_numbers(text), _expected(text))


@pytest.mark.parametrize("text", [
    '{"a": 1, "a": 2}', '[1.50, 1e400, -0.0]', ' {"x": "\\u00e3"} ', '"s"', "12"])
def test_written_forms_and_repeated_keys_are_kept(text: str) -> None:
    _same(batch.loads_keeping_numbers(text), _expected(text))


@pytest.mark.parametrize("text", ["\ufeff{}", "{", '{"a": 1} x', "", "NaN x", "[1,]"])
def test_what_json_loads_refuses_is_refused(text: str) -> None:
    with pytest.raises(ValueError) as expected:
        _expected(text)
    with pytest.raises(ValueError) as got:
        batch.loads_keeping_numbers(text)
    assert type(got.value) is type(expected.value)


def test_each_thread_reads_with_its_own_decoder() -> None:
    lines = [json.dumps({"k": i, "v": [i, str(i), {"f": i / 7}]}) for i in range(300)]
    failures: list[int] = []

    def read(offset: int) -> None:
        for index in range(offset, len(lines), 3):
            if batch.loads_keeping_numbers(lines[index])["k"] != index:
                failures.append(index)

    threads = [threading.Thread(target=read, args=(offset,)) for offset in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
