"""Triggers that fire on the words of a web server's log are cheap to refuse (issue 33).

* A phone keyword that is part of a product in a user agent (``Mobile/15E148``) lifts
  nothing, so its trigger refuses it (ContextWords.lifts_at); every phone window then
  reaches far enough to hold what makes any keyword in it part of a product.
* A ``://`` opens SECRET's window only when a user and a colon follow it before an
  at-sign (``scheme://user:password@host``): a referer holds no password.
* A command word (``curl``) opens SECRET's window only where one of its command-line
  patterns matches: a user agent's ``curl/8.5.0`` gives none.

Each accept is checked against what the recognizers find, and prefiltered analysis
against unfiltered analysis on every backend.
"""

from __future__ import annotations

import functools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recognizers.br_phone import BrPhoneNumberRecognizer
from recognizers.generic import BrPhoneRecognizer
from recognizers.secret import recognizer as secret_recognizer
from recognizers.secret.commands import command_passwords, may_hold_command_password
from recognizers.secret.formats import provider_tokens
from recognizers.secret.kinds import CONNECTION_STRING_PASSWORD
from recognizers.secret.web import may_hold_url_password, url_passwords
from redactor.config import Settings
from redactor.engine import Redactor
from redactor.engine.spans import Span
from tests import needs

IOS = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 "
       "(KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1")
CHROME = ("Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/130.0.0.0 Mobile Safari/537.36")
FIREFOX = "Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0"
APACHE = ('10.0.3.17 - - [02/Dec/2026:13:45:12 -0300] "GET /produtos HTTP/1.1" 200 5123 '
          '"https://loja.exemplo.com.br/carrinho" "{agent}"')


def _regions(text: str) -> dict[str, int]:
    engine = Redactor(Settings())
    engine.prefilter_min_chars = 0
    scanner = engine._scanner
    assert scanner is not None
    return {entity: len(found) for entity, found in scanner.regions(text).items()}


def test_a_web_servers_log_opens_no_phone_or_secret_window() -> None:
    log = "\n".join(APACHE.format(agent=agent)
                    for agent in (IOS, CHROME, FIREFOX, "curl/8.5.0")) + "\n"
    regions = _regions(log * 20)
    for entity in ("PHONE_NUMBER", "BR_PHONE", "SECRET"):
        assert entity not in regions, regions


@pytest.mark.parametrize(("text", "entity"), [
    ("Mobile: 11987654321", "PHONE_NUMBER"),
    ("celular 11987654321", "BR_PHONE"),
    ("postgres://app:s3nha@db.interno:5432/vendas", "SECRET"),
    ("curl -u admin:Segredo123 https://api.exemplo.com.br", "SECRET"),
    ("mysql -uroot -pSegredo123 vendas", "SECRET"),
])
def test_the_same_words_elsewhere_still_open_a_window(text: str, entity: str) -> None:
    assert _regions(f"x {text} y").get(entity), text


def test_an_arn_opens_no_secret_window_and_an_aws_key_is_still_found() -> None:
    record = '{"arn":"arn:aws:sts::123456789012:assumed-role/deploy","region":"sa-east-1"}'
    assert "SECRET" not in _regions("\n".join([record] * 30))
    key = 'aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"'
    assert _regions(f"{record}\n{key}").get("SECRET")
    found = _unfiltered()._spans(key, None)
    assert [key[f.start:f.end] for f in found] == ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"]


# ------------------------------------------------------------------ phone keywords

_KEYWORD_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]+(?=[^A-Za-z0-9]|\Z)")


def _masked(text: str, start: int, end: int, written: str) -> bool:
    return written[start:end] != text[start:end]


_AGENT_PARTS = st.sampled_from([
    IOS, CHROME, FIREFOX, "Mobile/15E148", "Version/17.6 ", "Chrome/130.0.0.0 ", " Safari/537.36",
    "Mozilla/5.0 (", "; ", ")", "(", "/", "/1", "/x", " ", "Mobile", "MOBILE", "mobile",
    "Celular", "celular", "tel", "Fone", "phone", "Phone", "WhatsApp", "whatsapp", "cell",
    "mobiles", "xmobile", "é", "São ", "11987654321", "(11) 98765-4321", "x" * 30, "a_b",
    "Android 14", "rv:132.0", "\n",
])


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(_AGENT_PARTS, min_size=1, max_size=14))
def test_lifts_at_refuses_exactly_the_keywords_outside_products_writes_over(
        parts: list[str]) -> None:
    text = "".join(parts)
    for recognizer in (BrPhoneRecognizer(), BrPhoneNumberRecognizer()):
        words = recognizer.context_words
        written = words.outside_products(text)
        for match in _KEYWORD_WORD.finditer(text):
            if match.group().lower() not in words._single:
                continue
            start, end = match.span()
            # The trigger's hit: the word, with the character after it when there is one.
            hit_end = min(len(text), end + 1)
            for hit_start in (start, max(0, start - 1), max(0, start - 9)):
                lifts = words.lifts_at(text, hit_start, hit_end)
                assert lifts is not _masked(text, start, end, written), (text, match.group())


_DISTANCE_WORDS = ["ab", "xyzzy", "q" * 23]
_NUMBERS = ["11987654321", "(11) 98765-4321", "11 98765-4321", "+55 11 98765-4321",
            "52998224725"]


@pytest.mark.parametrize("agent", [
    # What makes the keyword part of a product lies up to 93 characters before it.
    "Mozilla/5.0 (" + "w" * 46 + "; Mobile)",
    "Abcdefghijklmnopqrstuvwx/1.2.3.4.5.6.7.8.9 (" + "w" * 46 + "; Mobile)",
    "Mozilla/5.0 (Linux; Android 14; " + "w" * 40 + "; Mobile; rv:132.0)",
    "Chrome/130.0.0.0 Mobile Safari/537.36",
    "Version/17.6 Mobile/15E148 Safari/604.1",
    "AppleWebKit/605.1.15 Mobile/15E148",
])
def test_a_product_keyword_near_a_number_decides_as_unfiltered_at_every_distance(
        agent: str) -> None:
    """A number's own window (its trigger's) holds a keyword of a user agent at the edge
    of the context words: what makes the keyword part of a product must be in it too."""
    for number in _NUMBERS:
        for count in range(8):
            for word in _DISTANCE_WORDS:
                gap = " ".join([word] * count)
                for text in (f"{agent} {gap} {number} fim", f"x {number} {gap} {agent}"):
                    _same(text)


# ------------------------------------------------------------------ SECRET

_URL_PARTS = st.sampled_from([
    "https://", "postgres://", "://", "app", "user.name", ":", "s3nha", "P@ss", "@", "/", "?",
    "#", " ", "db.interno", "loja.exemplo.com.br", "5432", "%40", "!", "$", "[", "]", "\t",
    "mongodb+srv://", "jdbc:oracle:thin:", "scott/tiger", "curl", " -u ", "--user ", "mysql",
    " -p", "Segredo1", "curl/8.5.0", "'", '"', "IDENTIFIED BY ", "GRANT x TO y ", "docker",
    " login", "sshpass", "\n", "redis-cli -a ", "sqlplus ", "keytool -storepass ",
    "aws", "AWS", "arn:aws:sts::123456789012:assumed-role/x", "_secret_access_key", " = ",
    "token", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
])


_CHUNK = st.text(st.sampled_from("aZ9._-!$*%+~:@/?#[] \t'\"éß"), min_size=1, max_size=8)


@st.composite
def _url(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(["https", "postgres", "mongodb+srv", "amqp", "x", ""]))
    host = draw(st.sampled_from(["db.interno", "loja.exemplo.com.br", "-h", "_x", "", "[::1]"]))
    rest = draw(st.sampled_from(["", "/vendas", ":5432/x?ssl=1", " fim", "#a"]))
    return f"{scheme}://{draw(_CHUNK)}:{draw(_CHUNK)}@{host}{rest}"


@st.composite
def _command(draw: st.DrawFn) -> str:
    word = draw(st.sampled_from([
        "curl", "mysql", "mysqldump", "mariadb", "hdbsql", "sshpass", "redis-cli", "sqlcmd",
        "mongo", "mongosh", "ldapsearch", "keytool", "docker login", "podman login",
        "sqlplus", "sqlplus64", "sapcontrol", "hdbuserstore", "HDBUSERSTORE",
        "jdbc:oracle:thin:", "GRANT ALL ON x TO y", "create user z"]))
    flags = draw(st.lists(st.sampled_from([
        "-u", "--user", "-p", "-P", "-a", "-w", "-storepass", "-keypass", "-user",
        "SET", "IDENTIFIED BY", "identified with mysql_native_password by", "-h db",
        "scott/tiger@db", "k", "env"]), max_size=4))
    values = [draw(_CHUNK) for _ in flags]
    body = " ".join(f"{flag} {value}" for flag, value in zip(flags, values, strict=True))
    glue = draw(st.sampled_from([" ", "", "/8.5.0 ", "\t"]))
    return f"{word}{glue}{body}"


# Each case holds a password its finder reports (checked below): the properties are not
# vacuous.
_FOUND = ["postgres://app:s3nha@db.interno:5432/vendas", "https://a.b:P@ss!@loja.exemplo",
          "curl -s -u admin:Segredo123 https://x", "mysql -h db -pSegredo123",
          "GRANT ALL ON x.* TO 'y' IDENTIFIED BY 'Segredo123'",
          "sqlplus scott/Tiger123@orcl", "keytool -list -storepass Segredo123",
          "sapcontrol -nr 00 -user s4hadm Segredo123 -function Stop"]


@pytest.mark.parametrize("text", _FOUND)
def test_the_accepts_hold_every_password_of_the_documented_forms(text: str) -> None:
    found = [*url_passwords(text), *provider_tokens(text), *command_passwords(text)]
    assert found, text
    _every_password_has_an_accepted_hit(text)


@settings(max_examples=500, deadline=None)
@given(parts=st.lists(st.one_of(_URL_PARTS, _url(), _command()), min_size=1, max_size=8))
def test_every_url_password_and_command_password_has_an_accepted_hit(
        parts: list[str]) -> None:
    _every_password_has_an_accepted_hit("".join(parts))


def _every_password_has_an_accepted_hit(text: str) -> None:
    for hit in [*url_passwords(text), *provider_tokens(text)]:
        if hit.kind is not CONNECTION_STRING_PASSWORD:
            continue
        opener = text.rfind("://", 0, hit.start)
        assert opener >= 0 and may_hold_url_password(text, opener, opener + 3), text
    command_words = _command_trigger()
    for hit in command_passwords(text):
        assert any(may_hold_command_password(text, word.start(), word.end())
                   for word in command_words.finditer(text, 0, hit.start)), text


def _command_trigger() -> re.Pattern[str]:
    triggers = secret_recognizer.SecretRecognizer().prefilter(0.5).triggers
    (command,) = [t for t in triggers if t.name == "command"]
    return re.compile(command.pattern)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(parts=st.lists(st.one_of(_URL_PARTS, _AGENT_PARTS, _url(), _command()), min_size=1,
                      max_size=30))
def test_prefiltered_equals_unfiltered_on_web_and_command_text(parts: list[str]) -> None:
    text = "".join(parts)
    _same(text)


@functools.cache
def _unfiltered() -> Redactor:
    return Redactor(Settings(), prefilter=False)


@functools.cache
def _prefiltered() -> tuple[Redactor, ...]:
    engines = []
    for backend in needs.backends():
        engine = Redactor(Settings(), prefilter=backend)
        engine.prefilter_min_chars = 0
        engines.append(engine)
    return tuple(engines)


def _same(text: str) -> list[Span]:
    """The unfiltered spans of ``text``, checked equal to those of every backend."""
    expected = _unfiltered()._spans(text, None)
    for engine in _prefiltered():
        assert engine._spans(text, None) == expected, text
    return expected


# ------------------------------------------------------------------ IPv6 triggers

def test_colon_runs_that_hold_no_address_open_no_window() -> None:
    lines = ["[UFW BLOCK] IN=eth0 OUT= MAC=14:38:1a:3a:78:32:56:34:7b:9f:fc:e6:9c:d7 SRC=x",
             'Processing by Api::V1::FreteController#show as JSON',
             '"arn":"arn:aws:sts::123456789012:assumed-role/deploy"']
    assert "IP_ADDRESS" not in _regions("\n".join(lines * 10))


@pytest.mark.parametrize("text", [
    "host=fe80::1", "[2001:db8::1]:443", '"2001:db8::5"', "(fe80::1%eth0)", "'::ffff:192.0.2.1'",
    "ip:2001:db8::1", "ip=2001:db8:0:0:0:0:0:1", "x_fe80::1", "éfe80::1", "gfe80::1",
    "Api::V1", "sts::123456789012", "1:2:3:4:5:6:7:8:9", "a:1:2:3:4:5:6:7:8",
])
def test_prefiltered_equals_unfiltered_around_colon_runs(text: str) -> None:
    for line in (text, f"ok {text} ok", f"{text}\n{text}"):
        _same(line)


@pytest.mark.parametrize("text", [
    "fe80::1", "2001:db8::1", "::1", "::ffff:192.0.2.1", "::", "1::", "a:b:c:d:e:f:1:2",
    "2001:0db8:0000:0000:0000:ff00:0042:8329", "1:2:3:4:5:6:7:8%eth0", "1:2:3:4:5:6:7:8/64",
    "(2001:db8:0:0:0:0:0:1)", "64:ff9b::192.0.2.33", "1:2:3:4:5:6:192.0.2.1",
])
def test_every_address_still_opens_a_window(text: str) -> None:
    assert _regions(f"host {text} up").get("IP_ADDRESS"), text


_IPV6_PARTS = st.sampled_from([
    "1", "a", "ff", "fe80", "2001", "db8", "0db8", "ffff", "12345", ":", "::", ":::", ".",
    "192.0.2.1", "g", "V1", "Api", "_", "é", "x", " ", "=", "%eth0", "/64", "/", "[", "]",
    "MAC=", "sts", "\n", "1:2:3:4:5:6:7:8", "14:38:1a:3a:78:32:56:34:7b",
])


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(parts=st.lists(_IPV6_PARTS, min_size=1, max_size=24))
def test_prefiltered_equals_unfiltered_on_colon_runs(parts: list[str]) -> None:
    text = "".join(parts)
    _same(text)


# ------------------------------------------------------------------ Windows events

EVENT = ('<Event><System><Provider Name="Microsoft-Windows-Security-Auditing" '
         'Guid="{54849625-5478-4994-A5BA-3E3B0328C30D}"/><Channel>Security</Channel>'
         '<Computer>SRV-APP01.corp.exemplo.com.br</Computer></System><EventData>'
         '<Data Name="SubjectUserName">DC01$</Data><Data Name="TargetUserName">SRV-APP01$'
         '</Data><Data Name="TargetDomainName">EXEMPLO</Data></EventData></Event>')


def test_a_windows_event_opens_no_person_or_phone_window() -> None:
    regions = _regions("\n".join([EVENT] * 20))
    for entity in ("PERSON", "PHONE_NUMBER"):
        assert entity not in regions, regions


@pytest.mark.parametrize(("text", "found"), [
    ('{"nome": "Maria Souza"}', "Maria Souza"),
    ("GET /busca?nome=Maria+Souza&page=2", "Maria+Souza"),
    ("cliente=Joana%20Lima&x=1", "Joana%20Lima"),
    ('<Data Name="Fernanda Oliveira"/>', "Fernanda Oliveira"),
    ("Sr. João Pereira chegou", "João Pereira"),
    ("falou com a Sra. Carla Mendes", "Carla Mendes"),
    ("Dr. Ana Paula", "Ana Paula"),
    ("telefone (11) 98765-4321 {54849625-5478-4994-A5BA-3E3B0328C30D}", "(11) 98765-4321"),
    ("{54849625-5478-4994-A5BA-3E3B0328C30D}(21) 99876-5432", "(21) 99876-5432"),
    ("54849625-5478-4994-a5ba-3e3b0328c30d 21 99876-5432", "21 99876-5432"),
    ("trace=54849625-5478-4994-a5ba-3e3b0328c30d;21 99876-5432", "99876-5432"),
])
def test_names_and_phones_next_to_the_refused_hits_are_still_found(text: str,
                                                                     found: str) -> None:
    expected = _same(text)
    assert any(found in text[span.start:span.end] or text[span.start:span.end] in found
               for span in expected), expected


def test_the_digits_of_a_uuid_are_no_phone() -> None:
    # 5478-4994 reads as a subscriber number; inside a GUID it is part of an id.
    text = "telefone {54849625-5478-4994-A5BA-3E3B0328C30D}"
    assert not [f for f in _unfiltered().analyze(text) if "PHONE" in f.entity_type]


_EVENT_PARTS = st.sampled_from([
    EVENT, '<Data Name="', '">', "</Data>", "Name=", "name: ", "nome=", '"nome": "', "?nome=",
    "&", "+", "%20", "Maria", "Souza", "SubjectUserName", "Microsoft-Windows", "SRV-APP01",
    "SR", "Sr", "Sr.", "Dr", "DR", "V", "João", " ", "\n", "Channel", "<Computer>", "$",
    "{54849625-5478-4994-A5BA-3E3B0328C30D}", "54849625", "-5478-4994-", "(11) ", "98765-4321",
    "tel ", "a5ba", "-", "3E3B0328C30D", "}", "{", "9",
])


@settings(max_examples=250, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(parts=st.lists(_EVENT_PARTS, min_size=1, max_size=24))
def test_prefiltered_equals_unfiltered_on_event_like_text(parts: list[str]) -> None:
    text = "".join(parts)
    _same(text)


def test_a_title_at_a_wrapped_lines_end_is_read_prefiltered_too() -> None:
    # Found by the test above in CI: a line of 40 characters or more is prose wrapped, so
    # a run goes on past its break; the title trigger did not, and the prefiltered
    # engines missed the name after "SR" on the next line.
    text = EVENT + "SR\nMariatel "
    assert [text[s.start:s.end] for s in _same(text)] == ["Mariatel"]
