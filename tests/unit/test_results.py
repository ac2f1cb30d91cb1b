"""Results never show the data they describe."""

from __future__ import annotations

import pytest

from redactor.results import Finding, JsonRedaction, RedactionResult


def test_reprs_hold_no_text() -> None:
    finding = Finding(3, 17, "BR_CPF", 1.0, "BrCpfRecognizer")
    result = RedactionResult("x 529.982.247-25 y", (finding,))
    assert "529" not in repr(result) and "529" not in str(result)
    assert repr(result) == "RedactionResult(chars=18, findings=1 [BR_CPF=1])"
    assert "529" not in repr(finding)
    json_result = JsonRedaction({"cpf": "529.982.247-25"}, (finding,), {"cpf": "[CPF]"})
    assert "529" not in repr(json_result) and "CPF]" not in repr(json_result)


def test_finding_rejects_empty_spans() -> None:
    with pytest.raises(ValueError, match="start < end"):
        Finding(5, 5, "BR_CPF", 1.0, "x")
