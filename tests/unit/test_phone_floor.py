"""The phone matcher passes over a candidate unparsed when it has too few digits to be a
valid number of the region it is read in (no plus sign, no international prefix): the
matches must be python-phonenumbers' own, in every region."""

from __future__ import annotations

import phonenumbers
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from recognizers.generic import _matcher_class, _national_floor

PIECES = ["1234", "-0300", "200 21687", "3456-7890", "98765-4321", "11", "(11)", "0021",
          "00", "011", "0044 20 7946 0958", "+", "+1", "+44", "+55 11 98765-4321",
          "020 7946 0958", "(202) 555-0143", "555-0143", "4004-0001", "0800 123 4567",
          "ext. 12", "x 7", "1-800-FLOWERS", "CALL", "\u0661\u0662\u0663\u0664\u0665\u0666",
          "\uff0b55", "tel:", ";", "/", ".", "1.2.3", "10.61.31.84", "99999", "123 4567",
          "7 digits", "8765432", "00 683 7012", "87654321", "9876 5432", "Mobile/15E148",
          "Safari/604.1", "460 1234", "2123456", "81234", "886377", "call"]
REGIONS = ["BR", "US", "GB", "DE", "IN", "NU", "GR", "AG", "MG", "NF", "SM"]
LENIENCIES = [phonenumbers.Leniency.VALID, phonenumbers.Leniency.POSSIBLE]


def _matches(matcher: phonenumbers.PhoneNumberMatcher) -> list[tuple[int, str, int, int]]:
    return [(m.start, m.raw_string, m.number.country_code, m.number.national_number)
            for m in matcher]


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(["0044 20 7946 0958"], " ", "BR", phonenumbers.Leniency.VALID)
@example(["200 21687", "-0300"], " ", "BR", phonenumbers.Leniency.VALID)
# Niue's number dialled from Greece: 9 digits
@example(["00 683 7012"], " ", "GR", phonenumbers.Leniency.VALID)
# +1 268 460-1234: the national prefix rule writes 268 in
@example(["call", "460 1234"], " ", "AG", phonenumbers.Leniency.VALID)
@example(["call", "555-0143"], " ", "US", phonenumbers.Leniency.POSSIBLE)  # local only
@given(st.lists(st.sampled_from(PIECES), max_size=12), st.sampled_from([" ", "", "-", "\n"]),
       st.sampled_from(REGIONS), st.sampled_from(LENIENCIES))
def test_the_floor_changes_no_match(pieces: list[str], glue: str, region: str,
                                    leniency: phonenumbers.Leniency) -> None:
    text = glue.join(pieces)
    options = {"leniency": leniency, "max_tries": 1 << 62}
    ours = _matcher_class()(text, region, **options)
    stock = phonenumbers.PhoneNumberMatcher(text, region, **options)
    assert _matches(ours) == _matches(stock)


def test_the_floor_is_the_regions_shortest_number() -> None:
    floor, idd = _national_floor("BR")
    assert floor == 8  # Brazil: eight-digit subscriber numbers at least
    assert idd is not None and idd.match("0021") and not idd.match("0300")
    assert _national_floor("ZZ") == (0, None)  # unknown region: no floor
    assert _national_floor("AG") == (0, None)  # the national prefix rule writes digits in
    assert _national_floor("US", True)[0] < _national_floor("US")[0]  # local-only lengths
