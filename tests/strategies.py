"""Hypothesis strategies for valid identifiers, built from the check-digit algorithms."""

from __future__ import annotations

import string

from hypothesis import strategies as st

from benchmarks import synthetic as syn


def cpfs() -> st.SearchStrategy[str]:
    """Valid bare CPFs."""
    bases = st.text(string.digits, min_size=9, max_size=9).filter(lambda b: len(set(b)) > 1)
    return bases.map(lambda b: b + syn.cpf_check_digits(b))


def cnpjs(alphanumeric: bool | None = None) -> st.SearchStrategy[str]:
    """Valid bare CNPJs; alphanumeric ones hold at least one letter."""
    if alphanumeric is None:
        return st.one_of(cnpjs(False), cnpjs(True))
    alphabet = syn.ALNUM if alphanumeric else string.digits
    bases = st.text(alphabet, min_size=12, max_size=12).filter(
        lambda b: len(set(b)) > 1 and (not alphanumeric or any(c.isalpha() for c in b)))
    return bases.map(lambda b: b + syn.cnpj_check_digits(b))
