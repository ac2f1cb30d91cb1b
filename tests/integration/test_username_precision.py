"""User names, precision first (issue 28): a cue captures a login, not the next word of
the language, and propagation spreads only sure names, as the same token."""

from __future__ import annotations

import pytest

from recognizers.lexicon import is_common_word
from redactor.engine import Redactor


def usernames(engine: Redactor, text: str) -> list[str]:
    return [text[f.start:f.end] for f in engine.analyze(text) if f.entity_type == "USERNAME"]


@pytest.mark.parametrize("text", [
    "[Sat Jan 04 10:00:01 2014] [error] [client 192.0.2.7] File does not exist: /var/www",
    "dovecot: pop3-login: Disconnected (no auth attempts): rip=192.0.2.4, lip=192.0.2.1",
    "postfix/smtpd[812]: warning: unknown[192.0.2.9]: SASL LOGIN authentication failed: x",
    "Os grupos do usuário ou um dos IDs de usuário podem ser alterados.",
    "GREP(1)                    Comandos de usuário                    GREP(1)",
    "imap-login: Login: user=<>, method=PLAIN, rip=192.0.2.3, TLS: Disconnected",
    "login: Aborted (auth failed, 1 attempts)",
    "o usuário: administrador do sistema",
    "user message from the server follows",
    "Failed for user _usuário_ no exemplo",
])
def test_an_ordinary_word_after_a_weak_cue_is_no_user_name(engine: Redactor, text: str) -> None:
    assert usernames(engine, text) == []


@pytest.mark.parametrize(("text", "name"), [
    # After a user word, a login made of a person's name as companies build them.
    ("Falha de autenticação para o usuário mferreira (senha inválida)", "mferreira"),
    ("O usuário joao.silva fez login", "joao.silva"),
    ("user pedrosouza2 logged in from the VPN", "pedrosouza2"),
    ("usuário jsilva.adm alterou a ordem", "jsilva.adm"),
    ("user r_cunha: password changed", "r_cunha"),
])
def test_a_login_made_of_a_name_after_a_user_word(engine: Redactor, text: str,
                                                  name: str) -> None:
    assert usernames(engine, text) == [name]


@pytest.mark.parametrize("text", [
    "o usuário final pode escolher", "para o usuário admin", "the user xattrs are kept",
    "user namespaces and user agents", "o usuário ana", "the user interface", "user mode",
    # Found by review: an initial and a short surname make words of other languages.
    "El usuario ahora puede entrar.", "Para que el usuario pueda acceder",
    "Configure the user vlans.", "user elems are copied",
])
def test_other_words_after_a_user_word_are_prose(engine: Redactor, text: str) -> None:
    assert usernames(engine, text) == []


@pytest.mark.parametrize(("text", "name"), [
    ("dovecot: imap-login: Aborted login (auth failed): user=<rcunha>, method=PLAIN", "rcunha"),
    ("sshd[1]: Invalid user test from 192.0.2.1 port 4242", "test"),
    ("sshd[1]: Failed password for invalid user admin2 from 192.0.2.1 port 22", "admin2"),
    ("pam_unix(sshd:session): session opened for user known by (uid=0)", "known"),
    ('{"user": "sales", "action": "login"}', "sales"),
    ("BNAME = TESTER", "TESTER"),
    ("user = http", "http"),
])
def test_a_strong_form_takes_even_a_word(engine: Redactor, text: str, name: str) -> None:
    # Attempted logins are real user names, whatever word they are.
    assert name in usernames(engine, text)


def test_a_word_found_as_a_login_is_not_spread(engine: Redactor) -> None:
    text = ("sshd[1]: Invalid user http from 192.0.2.1\n"
            'GET http://example.com/ HTTP/1.1 "http" test\n'
            "sshd[2]: Invalid user test from 192.0.2.2\nrunning the test suite\n")
    assert usernames(engine, text) == ["http", "test"]


def test_a_login_is_spread_as_the_same_token_in_its_systems_case(engine: Redactor) -> None:
    unix = "session opened for user=rcunha\nrcunha logged in; RCUNHA; rcunha.bak; /home/rcunha"
    assert usernames(engine, unix) == ["rcunha", "rcunha", "rcunha"]
    sap = "BNAME = RCUNHA\nrcunha alterou o pedido; Rcunha saiu"
    assert usernames(engine, sap) == ["RCUNHA", "rcunha", "Rcunha"]


def test_a_spread_that_dwarfs_its_evidence_is_dropped(engine: Redactor) -> None:
    # Cued once, found 200 times: a word of this text, not a login.
    text = "user=zorblat\n" + "the zorblat module restarted\n" * 200
    assert usernames(engine, text) == ["zorblat"]
    # A few mentions per cue still spread.
    few = "user=zorblat\n" + "zorblat ran a job\n" * 10
    assert len(usernames(engine, few)) == 11


def test_a_mailbox_named_after_no_one_is_not_spread(engine: Redactor) -> None:
    # Found on real text: Debian's documentation gave "dev" 135 times (/dev/null,
    # /dev/urandom), "coreutils" 58 and "newlib" 53, each spread from an e-mail
    # address's mailbox (dev@snitselaar.org, coreutils@gnu.org).
    text = ("Jerry Snitselaar  dev@snitselaar.org\n"
            "Send bug reports to coreutils@gnu.org, or to newlib@sources.redhat.com.\n"
            "  pointing to /dev/null; the GNU coreutils ls; Don't build newlib.\n")
    out = engine.redact(text).text
    assert "/dev/null" in out and "GNU coreutils ls" in out and "build newlib" in out
    assert "snitselaar.org" not in out and "gnu.org" not in out
    # A mailbox named after a person is that person's login too.
    for mailbox in ("jsilva", "maria.souza", "pedrosouza2", "david"):
        person = f"From: {mailbox}@empresa.com.br\nO {mailbox} aprovou o pedido\n"
        assert engine.redact(person).text == (
            "From: [EMAIL]\nO [USERNAME] aprovou o pedido\n"), mailbox
    # A login at a host that is no domain name spreads, whatever its name, and so does
    # one at a domain's host after ssh, scp or rsync, before a path, or in a prompt
    # (found by review: ssh xuxa88@bastion.empresa.com.br).
    assert usernames(engine, "ssh zorblat@build01\nzorblat saiu") == ["zorblat", "zorblat"]
    for login in ("$ ssh xuxa88@bastion.empresa.com.br\n$ whoami\nxuxa88\n",
                  "rsync -a xuxa88@nas.acme.io:/srv .\nxuxa88 done\n",
                  "[xuxa88@web01.empresa.com.br ~]$ whoami\nxuxa88\n"):
        assert "xuxa88" not in engine.redact(login).text, login


@pytest.mark.parametrize("text", [
    # Found on real text: 20 MB of Python source (the packages of this project's
    # environment) gave 841 USERNAME findings, "user_id" 126 times, "getattr" 86.
    "self._send(user_id=user_id, chat_id=chat_id)",
    "user = getattr(cfg, 'user', None)",
    "route(user_name=route_name)",
    "Operator(operatorName=operatorName)",
    "req(user_id=self._user_id)",
    'record = {"user_id": normalized_user_id, "ok": True}',
    "login=src.get('login')",
    "to_user_id=chat_id,",
    "def get(self, user_id: typing.Optional[str] = None) -> None:",
    "for uid in allowed:\n    check(user=uid)",
    "audit(login=current_user.username)",
])
def test_code_passing_a_variable_under_a_user_key_names_no_login(engine: Redactor,
                                                                 text: str) -> None:
    assert usernames(engine, text) == []


@pytest.mark.parametrize("text", [
    # Found on real text (Node.js' and npm's change logs): a kind of setting after
    # "Unknown user", spread 180 times, and a file run from /home in a stack trace.
    'npm warn Unknown user config "electron_mirror". This will stop working',
    "    at Object.<anonymous> (/home/index.js:3:14)",
    "tail -f /home/app.log",
])
def test_a_setting_or_a_file_in_a_login_place_is_no_login(engine: Redactor, text: str) -> None:
    assert usernames(engine, text) == []


def test_the_login_places_still_hold_logins(engine: Redactor) -> None:
    text = ("sshd[1]: Invalid user zorblat from 192.0.2.1 port 22\n"
            "Unknown user qwertz\nls /home/jsilva/app.js\n")
    assert usernames(engine, text) == ["zorblat", "qwertz", "jsilva"]


def test_logins_under_user_keys_stay_beside_the_code_rules(engine: Redactor) -> None:
    text = ("user=jsilva db=app\nlogin: maria.souza\n\"userName\": \"rcunha\"\n"
            "session opened for user=app_user by root\n")
    assert usernames(engine, text) == ["jsilva", "maria.souza", "rcunha", "app_user"]
    # Found by review: a log's bracket after a login is a uid, a host or a client's.
    for line in ("login failed user=xuxa88(1001) from 10.0.0.9", "op=login user=xuxa88[10.0.0.9]",
                 "owner=xuxa88(uid=1001)", "usr=xuxa88[DOMAIN]", "created_by=xuxa88[web]",
                 "BNAME = XUXA88(100)", "user=maria.souza(1001)"):
        assert usernames(engine, line), line


def test_the_common_word_lexicon() -> None:
    for word in ("ou", "client", "Disconnected", "authentication", "http", "grep", "Fri",
                 "janeiro", "usuário", "sexta"):
        assert is_common_word(word), word
    # Logins, and given names decided by the form around them.
    for word in ("jsilva", "rcunha", "maria", "joao", "carla", "john.smith", "e-smith"):
        assert not is_common_word(word), word


@pytest.mark.parametrize("text", [
    '{"name": "repo", "owner": "my-name"}',
    "ssh your_user@host", "login: seu.usuario",
])
def test_documentation_placeholders_are_no_user_names(engine: Redactor, text: str) -> None:
    assert not [f for f in engine.analyze(text) if f.entity_type == "USERNAME"]


def test_the_verdicts_remembered_follow_the_allowlist() -> None:
    # _may_report remembers its answer per value; an allowlist given afterwards (a
    # Presidio user setting the attribute) is obeyed, not the remembered answer.
    from recognizers.username import ServiceAccounts, UsernameRecognizer

    recognizer = UsernameRecognizer()

    def found(text: str) -> list[str]:
        return [text[r.start:r.end] for r in recognizer.analyze(text, ["USERNAME"])]

    assert found("user=metabase") == ["metabase"]
    recognizer.service_accounts = ServiceAccounts(["metabase"])
    assert found("user=metabase") == []
    assert found("user=jsilva") == ["jsilva"]

