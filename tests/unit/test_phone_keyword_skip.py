"""PHONE_NUMBER's ``bare_needs_keyword`` skips the parse of candidates no keyword can
lift: the findings over the threshold must be those of every candidate parsed.

Why the test for a keyword is a generous window of characters and not the word count
the context scoring applies (tried for issue 33): a part the matcher is told to skip is
a part that did not parse, so it goes on to the part's inner groups and, finding none,
passes over the whole candidate.  Had the part parsed, it would have resumed right
after it and found the next number of the candidate.  With the word count, the
example ``11987654321 11 3456-7890 celular`` lost its lifted second number."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from recognizers.generic import BrPhoneRecognizer

THRESHOLD = 0.5
WORDS = ["celular", "tel", "mobile", "Mobile/15E148", "Safari/604.1", "fone:", "lote",
         "GET", "200", "5316", "pedido", "hotel", "telefones", "-", "\n", "(iPhone;",
         "11987654321", "4532345678", "4512345678", "2134567890", "11 3456-7890", "98765-4321",
         "203.0.113.45", "1234 5678", "ramal", "x", "+55 11 98765-4321", "0800 123 4567",
         # a user agent's words: no keyword there (ContextWords.outside_products)
         "Chrome/130.0.0.0", "Mobile", "(Android", "14;", "Mobile;", "rv:132.0)", "WhatsApp/2.23",
         "celular/whatsapp", "1.2.3.4"]


def _found(recognizer: BrPhoneRecognizer, text: str, skip: bool) -> list[tuple[int, int, float]]:
    raw = recognizer.analyze(text, ["PHONE_NUMBER"], bare_needs_keyword=skip)
    scored = recognizer.enhance_using_context(text, raw, [], None, None)
    return sorted((r.start, r.end, r.score) for r in scored if r.score >= THRESHOLD)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(["11987654321", "11 3456-7890", "celular"], " ")
@example(["Chrome/130.0.0.0", "Mobile", "Safari/604.1", "11987654321"], " ")
@example(["1.2.3.4", "Mobile/15E148", "4532345678"], " ")
@given(st.lists(st.sampled_from(WORDS), max_size=30), st.sampled_from([" ", "  ", "\t", "; "]))
def test_skipping_changes_no_finding_over_the_threshold(words: list[str], glue: str) -> None:
    recognizer = BrPhoneRecognizer()
    text = glue.join(words)
    assert _found(recognizer, text, True) == _found(recognizer, text, False)
