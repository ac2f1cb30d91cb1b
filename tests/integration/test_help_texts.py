"""Software's own words: help listings, usage lines, message catalogues.

Found on real text nobody here wrote: the pt_BR message catalogues of this machine's
Debian packages (PAM, shadow, coreutils, GnuTLS, PostgreSQL, procps) and the --help of
its commands (psql, less).  An agent runs ``cmd --help`` all the time; what a help text
names (``--password``, ``--owner=DONO``, ``usuário efetivo``) is no secret and no login.
"""

from __future__ import annotations

from typing import Final

import pytest

from recognizers.lexicon import is_common_word, is_portuguese_adjective
from redactor.engine import Redactor


def found(engine: Redactor, text: str, entity: str) -> list[str]:
    return [text[f.start:f.end] for f in engine.analyze(text) if f.entity_type == entity]


#: Lines of help listings, each shown between two entries of its listing.
_ABOVE: Final = "  -h, --host=HOSTNAME     database server host or socket directory\n"
_BELOW: Final = "\n  -V, --version            output version information, then exit\n"


@pytest.mark.parametrize("line", [
    # psql --help: the description after the option's column
    "  -W, --password           force password prompt (should happen automatically)",
    "  -w, --no-password        never prompt for password",
    "  -W, --password            pergunta senha",
    "  -r, --remove-password         remove a senha do GRUPO",
    # a metavariable in capitals before the description
    "      --private-key=FILE       private key file",
    "      --private-key=ARQUIVO       arquivo de chave privada",
    "  --api-key KEY         the API key",
    "  -p SENHA, --password=SENHA   senha do banco",
])
def test_a_help_listings_option_is_no_secret(engine: Redactor, line: str) -> None:
    text = _ABOVE + line + _BELOW
    assert found(engine, text, "SECRET") == []
    assert engine.redact_json({"stdout": line + _BELOW}).value == {"stdout": line + _BELOW}


@pytest.mark.parametrize("text", [
    "usage: prog [--password SENHA] [-v]",
    # printf conversions in message catalogues
    "Senha ruim : %s.",
    "Nome de chave inválido: %.*s",
    "password: %ld",
    "token=%-10s",
    "senha: %1$s",
])
def test_a_usage_line_and_a_format_are_no_secret(engine: Redactor, text: str) -> None:
    assert found(engine, text, "SECRET") == []


@pytest.mark.parametrize(("text", "secret"), [
    ("mysql --password  S3cr3tX -h db", "S3cr3tX"),  # a command's line, two blanks
    ("mysql -u root --password S3cr3tX", "S3cr3tX"),
    ("mysql --password=ROOTPW  mydb", "ROOTPW"),  # capitals on a command's line
    ("  --password  hunter2  \\", "hunter2"),  # a digit: no description
    ("usage: prog [--password S3nh4]", "S3nh4"),  # a digit: no argument's name
    ("run --token ABCDEF  now please", "ABCDEF"),
    ("  --api-key ABCDEFGH", "ABCDEFGH"),  # capitals, no description after
    # Found by review: a command continued over lines, a CI script, brackets of no
    # usage line, a lone line, a value after tabs.
    ("mysql -h db -u root \\\n  --password=ROOTPASS  appdb", "ROOTPASS"),
    ("mysqldump \\\n  --password  hunter appdb > x.sql", "hunter"),
    ("mysql \\\n  --user root \\\n  --password  hunter  app db\n  --host x  db server",
     "hunter"),
    ("script:\n  - >\n    docker login\n    --username=CIBOT  registry.gitlab.com\n"
     "    --password=CHANGEME  registry.gitlab.com", "CHANGEME"),
    ("args: [--password hunter]", "hunter"),
    ("[--password=correcthorse]", "correcthorse"),
    ("cmd: --password=SEGREDO  login ok", "SEGREDO"),
    ("--password\t\tsegredo\tfoo bar", "segredo"),
    # Found by a second review: a table of options, values and notes; a continuation
    # of cmd.exe or PowerShell; a usage word elsewhere on the line; a metavariable-like
    # value the description does not speak of.
    ("--user  jsilva  prod account\n--password  letmein  prod account\n", "letmein"),
    ("Flag        Value     Notes\n--user      deploy    service account\n"
     "--password  letmein   set in vault\n", "letmein"),
    ("--username=SYSTEM  oracle system\n--password=MANAGER  oracle system\n", "MANAGER"),
    ("  --db-user=app            database user\n"
     "  --token=ABCDEFGHIJKLMNOP  api access token", "ABCDEFGHIJKLMNOP"),
    ("sqlcmd ^\n  --password  letmein  for sa ^\n  --user  sa  system admin ^\n", "letmein"),
    ("mysqldump `\n  --user  root  local server `\n  --password  letmein  local server `\n",
     "letmein"),
    ("    command: >\n      --user=ROOT  mysql server\n      --password=TOPSECRET  mysql server\n",
     "TOPSECRET"),
    ("CPU usage: 3% args=[--password hunter]", "hunter"),
    ("2024-05-01 INFO uso: 45% argv=[--password segredo]", "segredo"),
    # printf-looking passwords
    ("password=%2024a!", "%2024a!"),
    ("password: %1999d", "%1999d"),
    ("senha=%08x!", "%08x!"),
])
def test_an_options_value_is_a_secret_still(engine: Redactor, text: str, secret: str) -> None:
    assert secret not in engine.redact(text).text
    assert secret not in str(engine.redact_json({"stdout": text}).value)


def test_a_printf_placeholder_is_read_in_linear_time(engine: Redactor) -> None:
    # Found by review: flags and width that both take a 0 backtracked over a long run.
    value = "%" + "0" * 20_000 + "Z"
    assert "[SECRET]" in str(engine.redact_json({"password": value}).value)


@pytest.mark.parametrize("line", [
    "  -o, --owner=DONO    define o dono (somente para super-usuário)",
    "  -O, --owner=DONO             usuário do banco que será dono do novo banco de dados",
    "  -U, --username=NOME      nome de usuário do banco de dados",
    "  -u, --user=USER       connect as USER",
])
def test_a_help_listings_argument_is_no_login(engine: Redactor, line: str) -> None:
    assert found(engine, _ABOVE + line + _BELOW, "USERNAME") == []


@pytest.mark.parametrize("text", [
    "Uso: %s [--dir /caminho/para/diretório-tally] [--user nome-utilizador] [--reset]",
    # An adjective after the user word: Portuguese puts it after its noun.
    "  -u, --user     exibe apenas a ID do usuário efetivo",
    "Credenciais do usuário expiradas",
    # A protocol or standard after it.
    "%s : usuário %s é um usuário NIS",
    "O nome de usuário SRP fornecido é ilegal.",
    "Erro de usuário PKCS#11",
])
def test_a_usage_line_and_a_kind_of_user_are_no_login(engine: Redactor, text: str) -> None:
    assert found(engine, text, "USERNAME") == []


@pytest.mark.parametrize(("text", "login"), [
    ("chown --owner=jsilva f", "jsilva"),
    ("install --owner=JSILVA  arquivo", "JSILVA"),  # a command's line
    ("  --owner=jsilva2   x", "jsilva2"),  # a digit: no metavariable
    ("[--user jsilva2]", "jsilva2"),
    ("sudo -u jsilva ls", "jsilva"),
    ("Sessão do usuário jsilva encerrada", "jsilva"),
    ("Sessão do usuário conrado encerrada", "conrado"),  # a given name, not an adjective
    # Found by review: a login that is a rare word ending as adjectives do, outside the
    # place of an adjective; brackets of no usage line; a command continued over lines.
    ("ssh morgado@10.0.0.5", "morgado"),
    ("login: folgado", "folgado"),
    ("sudo -u arretado ls", "arretado"),
    ("psql -U morgado -h db01", "morgado"),
    ("exec: [--user=jsilva]", "jsilva"),
    ("[--login jsilva]", "jsilva"),
    ("mysql \\\n    --user  jsilva  production", "jsilva"),
    # Found by a second review: a surname in capitals after the user word (SAP), a table.
    ("Usuário MORGADO bloqueado por excesso de tentativas", "MORGADO"),
    ("Logon falhou para o usuário MORGADO no mandante 100", "MORGADO"),
    ("--user  jsilva  prod account\n--password  letmein  prod account\n", "jsilva"),
    ("--password=LETMEIN   database password\n--user=SCOTT   database user\n", "SCOTT"),
    # A log's camel-case login that does not end its line.
    ("user: joaoSilva, ip: 10.0.0.1", "joaoSilva"),
])
def test_a_login_given_to_an_option_or_after_a_user_word_stays(engine: Redactor, text: str,
                                                               login: str) -> None:
    assert login in found(engine, text, "USERNAME")


def test_portuguese_adjectives() -> None:
    # Rarer than the common-word threshold in the subtitle list, held by it all the same.
    for word in ("efetivo", "expiradas", "autenticado", "desconectado"):
        assert is_portuguese_adjective(word), word
        assert not is_common_word(word), word  # a login elsewhere: "login: efetivo"
    # Names that end so are decided by the form around them, and so are short words
    # (a verb's form, a login: "user=brada" in an IMAP log).
    for word in ("conrado", "candida", "aparecida", "furtado", "brada"):
        assert not is_portuguese_adjective(word), word


def test_a_short_word_ending_so_spreads_as_a_login(engine: Redactor) -> None:
    text = "imapd[29087]: Login excessive login failures user=brada auth=brada host=x"
    assert found(engine, text, "USERNAME") == ["brada", "brada"]


def test_a_long_option_in_capitals_is_no_name(engine: Redactor) -> None:
    # less --help
    text = ("  -G  ........  --HILITE-SEARCH\n"
            "                  Don't highlight any matches for searches.\n"
            "  -m  -M  ....  --long-prompt  --LONG-PROMPT\n")
    assert found(engine, text, "PERSON") == []
    # An attribution glued to its dashes is a name still, in capitals too (review).
    assert found(engine, "Disse o poeta.\n--Mariana Souza Lima, 1999", "PERSON") == [
        "Mariana Souza Lima"]
    for text in ("Atenciosamente,\n--ANA-PAULA", "Assinado --MARIA-EDUARDA", "--JOSE-CARLOS"):
        assert found(engine, text, "PERSON") == [text.rsplit("--", 1)[1]], text


def test_a_help_text_through_the_hook_path(engine: Redactor) -> None:
    # A tool output is analysed after its key: the first line too.
    stdout = ("  -W, --password           force password prompt\n"
              "  -o, --owner=DONO    define o dono\n")
    assert engine.redact_json({"stdout": stdout}).value == {"stdout": stdout}


@pytest.mark.parametrize("text", [
    # npm's own source (JavaScript): names of code under a user's or a secret's key.
    "    token.prev = prev;",
    "      tokenData.packages = packages",
    "exports.X509KeyUsageExtension = X509KeyUsageExtension;",
    "      creds.token = tokenReg;",
    "    const username = await read.username('Username:', creds.username)",
    "        user = decodeURIComponent(pathname.slice(0, lastSlash))",
    "      var user = nameMatch[1]",
])
def test_names_of_code_are_no_secret_nor_login(engine: Redactor, text: str) -> None:
    assert engine.redact(text).text == text


@pytest.mark.parametrize(("text", "value"), [
    ("password=myPassword", "myPassword"),  # a configuration file's value
    ("password: correctHorse", "correctHorse"),
    ("password: hunter,", "hunter"),
    ("token = abc123XYZdef", "abc123XYZdef"),
    ("user: joaoSilva, ip: 10.0.0.1", "joaoSilva"),
    ("user = jsilva", "jsilva"),
    # Found by a third review: words in camel case in INI and properties files, logs
    # and flow maps are values; a short key's own name too.
    ("[client]\nuser = root\npassword = correctHorseBatteryStaple",
     "correctHorseBatteryStaple"),
    ("spring.datasource.password = myPassword", "myPassword"),
    ("pass = hunterTwo", "hunterTwo"),
    ("DEBUG config: password = adminSecret", "adminSecret"),
    ("token = xYzAbCdEfGhIjKlMnOpQrStUvWxYzAbCdEf", "xYzAbCdEfGhIjKlMnOpQrStUvWxYzAbCdEf"),
    ("api_key = key", "= key"),
    ("password: superSecret;", "superSecret"),
    ("ssh_password: myPassword,", "myPassword"),
    ("user = johnDoe, ip = 10.0.0.1", "johnDoe"),
    ("Connecting with user = deployBot password = adminSecret", "deployBot"),
    ("Connecting with user = deployBot password = adminSecret", "adminSecret"),
    ("spring.datasource.username = appUser", "appUser"),
    ("Authentication failed (user: joaoSilva)", "joaoSilva"),
    ("login: joaoSilva;", "joaoSilva"),
    ("username: johnDoe,", "johnDoe"),
    ("owner = async", "async"),
])
def test_a_value_that_is_no_name_of_code_stays(engine: Redactor, text: str, value: str) -> None:
    assert value not in engine.redact(text).text
    assert value not in str(engine.redact_json({"stdout": text}).value)


def test_a_program_named_as_a_users_value_is_not_spread(engine: Redactor) -> None:
    # npm's command aliases: "adduser" was spread to its 32 other mentions.
    text = "  'add-user': 'adduser',\nconst adduser = async (opener, prompter) => {}\n"
    assert engine.redact(text).text.count("adduser") >= 1
    assert "const adduser" in engine.redact(text).text
