"""User names where log formats put them without a key word (issue 33, the log zoo):
Apache's authuser field, SAP work-process rows, Windows event data, IAM user ARNs,
LDAP entries, qualified keys; and what looks like those places but holds no login."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from redactor.config import Settings
from redactor.engine import Redactor


def usernames(engine: Redactor, text: str) -> list[str]:
    return [text[f.start:f.end] for f in engine.analyze(text) if f.entity_type == "USERNAME"]


def entities(engine: Redactor, text: str) -> list[tuple[str, str]]:
    return [(f.entity_type, text[f.start:f.end]) for f in engine.analyze(text)]


@pytest.mark.parametrize(("text", "name"), [
    # Common and combined log formats (Apache, nginx): host ident authuser [time]
    ('192.0.2.7 - cbarbosa [27/Nov/2024:03:17:21 -0300] "GET / HTTP/1.1" 200 512', "cbarbosa"),
    ('www.exemplo.com.br - leticia.pereira [08/Nov/2024:20:15:55 +0000] "GET /" 401 0',
     "leticia.pereira"),
    ('2001:db8::7 identd-x mbarbosa [02/Nov/2024:17:42:30 -0300] "POST /api" 200 9', "mbarbosa"),
    # SAP system log (SM21) and statistics (STAD) rows: time, work process, client, user
    ("20:11:15 DIA 034 100 ACARVALHO    XD02 AB0 Run-time error occurred", "ACARVALHO"),
    ("07.11.2024 03:19:35 DIA 030 JSANTOS      BP    SAPMV45A resp=9707 ms", "JSANTOS"),
    ("10:01:18 BTC 012 000 PLIMA        SM37 R49 Communication error", "PLIMA"),
    # Windows event XML
    ('<Data Name="TargetUserName">jcarvalho</Data><Data Name="TargetDomainName">EX</Data>',
     "jcarvalho"),
    ("<Data Name='SamAccountName'>mrocha</Data>", "mrocha"),
    # IAM users in ARNs
    ("User: arn:aws:iam::123456789012:user/mariana.barbosa is not authorized", "mariana.barbosa"),
    ('"arn": "arn:aws:iam::123456789012:user/dev/rafael.lima"', "rafael.lima"),
    # LDAP entries
    ('BIND dn="uid=gipson,ou=people,dc=example,dc=com" method=128', "gipson"),
    ('INFO:{login = "uid=hack0r,ou=users,dc=mail,dc=example,dc=org"; }', "hack0r"),
    ("dn: uid=ítalo,ou=people,dc=example,dc=com", "ítalo"),
    ("dn: uid=_jsilva,ou=people,dc=example,dc=com", "_jsilva"),
    # a key/value pair right after another key's word (dovecot), a login before an "@"
    # that no address covers
    ("imap-login: Login: user=<maria>, method=PLAIN, rip=10.0.0.5", "maria"),
    ("Falha: user=jsilva@corp.local; ip=10.0.0.5", "jsilva"),
    ("user=jsilva@10.0.0.5, port 22", "jsilva"),
    # Keys that qualify the user they name
    ("remote_user=jsilva status=200", "jsilva"),
    ('"remoteUser": "bcosta"', "bcosta"),
    ("TargetUserName=pfreitas LogonType=3", "pfreitas"),
    ("DB_USER=rlima", "rlima"),
    # a qualified key on a line of its own, as YAML writes a setting
    ("remote_user: jsilva", "jsilva"),
    ("hosts: web\nremote_user: maria.souza\nbecome: true", "maria.souza"),
    ('hosts: all\nremote_user: "jsilva"', "jsilva"),
])
def test_log_formats_name_their_users(engine: Redactor, text: str, name: str) -> None:
    assert name in usernames(engine, text)


@pytest.mark.parametrize("text", [
    # haproxy puts a client address and port where Apache puts the user
    "haproxy[1]: 127.0.0.1:44 [27/Nov/2024:03:17:21.123] fe be/srv 0/0/1 200",
    '192.0.2.7 - - [27/Nov/2024:03:17:21 -0300] "GET / HTTP/1.1" 200 512',
    '10.0.0.2 - admin [18/Nov/2018:10:00:00 +0000] "GET / HTTP/1.1" 401 0',
    # an SAP row with a technical user, or no user at all
    "16:53:36 UPD 015 100 SAPSYS       MM03 Q0I Operating system call recv failed",
    "NO DIA 015 DE MARCO TODOS OS PEDIDOS",
    # Windows accounts that are no people: machines, virtual and service accounts
    '<Data Name="SubjectUserName">DC01$</Data><Data Name="TargetUserName">DWM-1</Data>',
    '<Data Name="SubjectUserName">svc_erp</Data>',
    # an ARN's prefix is no login; a key that is no user's
    "User: arn:aws:sts::123456789012:assumed-role/Deploy/i-0abc is not authorized",
    "user: https://example.com/u maxUsers=5 userAgent: Mozilla onLogin=handleLogin",
    # masks
    "F=XXXXXX@XXXXXXXXXXXX H=localhost user=xxxx", "user=X.X",
    # IAM policies name paths and wildcards, not users
    '"Resource": "arn:aws:iam::123456789012:user/engineering/*"',
    "arn:aws:iam::123456789012:user/devops/ arn:aws:iam::123456789012:user/dev*",
    # code declares names with qualified keys: types and functions, no logins
    "async def me(current_user: Annotated[User, Depends(auth)]) -> User:",
    "const { currentUser: UserModel, fetchUser: async (id) => x, setUser: setCurrentUser }",
    # ... on a line of its own too: indented (a field), followed by more, or a type
    "class Request:\n    current_user: jsilva", "current_user: jsilva = Depends(auth)",
    "current_user: UserModel", "x.remote_user: jsilva, y",
    # ... and a constant's name in capitals, as API change lists write them
    "LIBFOO_E_UNKNOWN_USER: DEPRECATED\nLIBFOO_E_BAD_USERNAME: REMOVED",
    # ... and types, as annotations write them
    "request_user: models.User", "session_user : dict", "auth_user: bool",
    # Windows built-in accounts and groups
    '<Data Name="TargetUserName">Administrators</Data><Data Name="SubjectUserName">krbtgt'
    "</Data>",
    '<Data Name="TargetUserName">IUSR</Data><Data Name="TargetUserName">defaultuser0</Data>',
])
def test_what_looks_like_those_places_holds_no_login(engine: Redactor, text: str) -> None:
    assert usernames(engine, text) == []


def test_a_login_inside_a_persons_address_is_redacted_as_the_address(engine: Redactor) -> None:
    # Not [EMAIL][USERNAME][EMAIL]: the address is one finding.
    text = "sendmail: from=<bounce-25497-9881290652-user=example.com@example.com>, size=6420"
    assert entities(engine, text) == [
        ("EMAIL_ADDRESS", "bounce-25497-9881290652-user=example.com@example.com")]
    # A VERP address encodes a domain after "user=": that domain is no login to spread.
    assert usernames(engine, text + "\nrelay=example.com") == []
    text = "user=maria.silva@corp.com.br saiu; /home/maria.silva"
    assert entities(engine, text) == [("EMAIL_ADDRESS", "user=maria.silva@corp.com.br"),
                                      ("USERNAME", "maria.silva")]


def test_a_role_address_keeps_its_login(engine: Redactor) -> None:
    # EMAIL_ADDRESS leaves a role address (webmaster@): the login before it is found.
    assert entities(engine, 'user = "webmaster@example.com"') == [("USERNAME", "webmaster")]
    # A key glued to the address is read as part of it: one finding, no split.
    assert entities(engine, "imapd: LOGIN FAILED, user=sales@example.com, ip=[192.0.2.4]") == [
        ("EMAIL_ADDRESS", "user=sales@example.com"), ("IP_ADDRESS", "192.0.2.4")]


def test_a_login_found_in_a_log_format_is_spread(engine: Redactor) -> None:
    text = ('192.0.2.7 - cbarbosa [27/Nov/2024:03:17:21 -0300] "GET / HTTP/1.1" 200 512\n'
            "app: session of cbarbosa expired\n"
            "20:11:15 DIA 034 100 ACARVALHO    XD02 AB0 Run-time error\n"
            "acarvalho alterou o pedido\n")
    assert usernames(engine, text) == ["cbarbosa", "cbarbosa", "ACARVALHO", "acarvalho"]


def test_an_iam_user_under_a_long_path_is_found_with_and_without_the_prefilter() -> None:

    path = "".join(f"division-{i:02d}/" for i in range(3))
    text = f"arn:aws:iam::123456789012:user/{path}jsilva " + "trailing words " * 20
    for prefilter in (False, "re", "hyperscan"):
        engine = Redactor(Settings(), prefilter=prefilter)
        engine.prefilter_min_chars = 0
        assert usernames(engine, text) == ["jsilva"], prefilter


@pytest.mark.parametrize("key", ["remote_user", "targetUserName", "db_user", "remoteUser"])
def test_a_qualified_user_key_in_json_names_its_login(engine: Redactor, key: str) -> None:
    # nginx's JSON access log writes the basic-auth user as "remote_user": the JSON path
    # reads a member as "key: value", the shape a qualified key refuses in code.
    document = {key: "jsilva", "status": 200, "nested": {key: "maria.souza"}}
    result = engine.redact_json(document)
    assert result.value == {key: "[USERNAME]", "status": 200, "nested": {key: "[USERNAME]"}}
    assert result.entity_counts() == {"USERNAME": 2}


def test_a_qualified_user_key_in_json_lines_names_its_login(tmp_path: Path) -> None:
    from redactor.cli import main

    source = tmp_path / "access.jsonl"
    lines = [{"remote_addr": "10.0.0.5", "remote_user": "", "status": 200},
             {"remote_addr": "10.0.0.5", "remote_user": "jsilva", "status": 401},
             {"remote_addr": "10.0.0.5", "remote_user": "-", "status": 200}]
    source.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["redact", "-q", str(source), "--output", str(out)]) == 0
    written = [json.loads(line) for line in (out / "access.jsonl").read_text().splitlines()]
    assert [line["remote_user"] for line in written] == ["", "[USERNAME]", "-"]


@pytest.mark.parametrize("text", [
    # An Ansible role's defaults and README (shapes of public files): the account is
    # named after its software, which the text names everywhere.
    "prometheus_system_user: prometheus\nInstall [prometheus](https://github.com/prometheus/"
    "prometheus) into /etc/prometheus; run `prometheus --help`",
    "grafana_user: grafana\ngrafana_home: /var/lib/grafana",
])
def test_a_login_found_as_a_setting_only_is_not_spread(engine: Redactor, text: str) -> None:
    found = [(f.start, f.end) for f in engine.analyze(text) if f.entity_type == "USERNAME"]
    value = text.index(": ") + 2
    assert found == [(value, text.index("\n"))]


def test_a_login_written_as_data_is_spread(engine: Redactor) -> None:
    text = 'remote_user="jsilva" saiu\njsilva voltou'
    assert usernames(engine, text) == ["jsilva", "jsilva"]


#: JSON members under user keys whose "key: value" reading a log line would refuse (a
#: common word after a loose cue, capitals, a key in capitals), as SIEM exports and
#: application logs write them.
DATA_MEMBERS = [
    {"user": "clima", "msg": "clima bom hoje"},
    {"TargetUserName": "PFreitas", "msg": "logon by PFreitas ok"},
    {"SubjectUserName": "RSOUZA", "LogonType": 3},
    {"DB_USER": "APP_RW", "sql": "grant select to APP_RW"},
    {"login": "Disconnected"},
    {"owner": "calves", "path": "/srv/data"},
    {"user": "admin", "user_agent": "curl/8.0"},
    {"user": "-", "remote_user": ""},
    {"user": "u_6e07ac5fed", "session": "x"},
    {"remote_user": "jsilva", "request": "GET /users/jsilva/ HTTP/1.1"},
    # A person's name under a qualified key is the name's, as in the text; built-in
    # accounts and computer accounts are no one's login.
    {"TargetUserName": "Maria Silva"},
    {"created_by": "João Pereira"},
    {"TargetUserName": "NETWORK SERVICE", "SubjectUserName": "WS01$"},
    {"TargetUserName": "LOCAL SERVICE"},
]


@pytest.mark.parametrize("document", DATA_MEMBERS)
def test_a_json_member_under_a_user_key_is_read_as_its_line_reads_it(
        engine: Redactor, document: dict[str, object]) -> None:
    """The JSON path (hooks, JSON Lines) reads a member as "key: value"; its login is
    judged as the text of the line judges ``"key": "value"``, data that admits nothing
    but a login, and spread in the document as there."""
    line = json.dumps(document, ensure_ascii=False)
    as_text = json.loads(engine.redact(line).text)
    assert engine.redact_json(document).value == as_text
    for prefilter in (False, "re"):
        other = Redactor(Settings(), prefilter=prefilter)
        other.prefilter_min_chars = 0
        assert other.redact_json(document).value == as_text, prefilter


def test_the_data_reading_of_json_members_finds_what_the_log_reading_missed(
        engine: Redactor) -> None:
    found = engine.redact_json({"TargetUserName": "PFreitas", "user": "clima",
                                "DB_USER": "APP_RW", "msg": "PFreitas"})
    assert found.value == {"TargetUserName": "[USERNAME]", "user": "[USERNAME]",
                           "DB_USER": "[USERNAME]", "msg": "[USERNAME]"}
    # The same words in a log line's "key: value" stay: no JSON member there.
    assert usernames(engine, "login: Disconnected\nuser: clima") == []


def test_built_in_and_computer_accounts_of_logon_events_are_no_logins(engine: Redactor) -> None:
    found = engine.redact_json({"TargetUserName": "NETWORK SERVICE", "SubjectUserName": "WS01$",
                                "TargetDomainName": "NT AUTHORITY"})
    assert found.findings == ()
    assert usernames(engine, '<Data Name="SubjectUserName">WS01$</Data> user=WS02$') == []


def test_a_github_apps_bot_is_no_login(engine: Redactor) -> None:
    assert engine.redact_json({"login": "renovate[bot]", "user": {"login": "jsilva"}}).value \
        == {"login": "renovate[bot]", "user": {"login": "[USERNAME]"}}
    assert usernames(engine, "author=dependabot[bot] user=jsilva") == ["jsilva"]


@pytest.mark.parametrize("value", ["\ud800x", "a\udfffb", float("nan"), "x" * 200_000,
                                   'a"b\\c\nd', "", None, 10**30, "  jsilva  "])
@pytest.mark.parametrize("key", ["user", "TargetUserName", "DB_USER", "MasterUserPassword"])
def test_crafted_values_under_data_keys_get_an_answer(engine: Redactor, key: str,
                                                      value: object) -> None:
    # The member read as data writes it (quotes, backslashes, line breaks, lone
    # surrogates, huge or empty values): an answer of the same shape, never an error.
    result = engine.redact_json({key: value})
    assert list(result.value) == [key]
    assert all(f.entity_type in ("USERNAME", "SECRET") for f in result.findings)


@pytest.mark.parametrize("backend", ["re", "hyperscan", None])
def test_a_json_line_inside_a_string_names_its_login(backend: str | None) -> None:
    # Docker's json-file log (a .log file, read as text) holds each line of the
    # application's JSON inside a string, its quotes escaped: "user" names its login as
    # in the line itself, and the login is spread as a member written as data is.
    from tests import needs

    if backend == "hyperscan":
        needs.require_module(backend)  # skipped without it, failed under tests/run.sh
    engine = Redactor(Settings(), prefilter=backend if backend is not None else False)
    engine.prefilter_min_chars = 0
    inner = json.dumps({"level": "info", "user": "jsilva", "msg": "login ok"})
    docker = json.dumps({"log": inner + "\n", "stream": "stdout"}) + "\njsilva saiu\n"
    assert usernames(engine, docker) == ["jsilva", "jsilva"]
    assert usernames(engine, 'msg="{\\"login\\": \\"rcunha\\"}"') == ["rcunha"]
    # As in the plain line: a service account and a common word stay.
    assert usernames(engine, '{\\"user\\":\\"anonymous\\",\\"owner\\":\\"root\\"}') == []
