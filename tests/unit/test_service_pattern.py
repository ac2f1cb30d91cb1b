"""The service accounts' naming patterns asked as one alternation (issue 33, dense names):
a name matches the union whole exactly when it matches one of the patterns whole."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from recognizers.username import _SERVICE_PATTERN, _SERVICE_PATTERNS, ServiceAccounts

NAME = st.text(alphabet="abcdmnorstuvwxyz0129-_.", max_size=16) | st.sampled_from(
    ["prdadm", "sapserviceprd", "oraprd", "systemd-network", "svc-erp", "erp-svc", "svc_",
     "dwm-1", "umfd-0", "my-user", "seu.usuario", "jsilva", "adm", "svc-", "-svc"])


@settings(max_examples=3000, deadline=None)
@given(NAME)
@example("svc-erp-svc")
@example("oraprdadm")
def test_the_union_matches_what_one_pattern_matches(name: str) -> None:
    alone = any(pattern.fullmatch(name) for pattern in _SERVICE_PATTERNS)
    assert (_SERVICE_PATTERN.fullmatch(name) is not None) is alone
    assert (name in ServiceAccounts(())) is alone
    assert name not in ServiceAccounts((), patterns=False)
