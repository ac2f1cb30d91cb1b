"""Secrets benchmark: recall per kind and look-alikes left intact, on generated files.

Every value is generated from its format with a seeded random source (no real
credential).  Each secret is planted in the kinds of files a team's agent reads on a
server: ``.env`` files, YAML and JSON configuration, Kubernetes ``Secret`` manifests,
shell history, HTTP headers, SAP profiles and RFC configuration, Java and Python stack
traces holding connection strings, and what ``cat`` shows of ``.netrc``, AWS, docker, npm
and git credentials, ``docker inspect``, ``git log -p``, SQL migrations and tomcat users.
Look-alikes that must stay intact sit in the same files: git SHAs, UUIDs, lockfile
hashes, base64 images, public keys and certificates, placeholders (``<password>``,
``${TOKEN}``, ``********``), the shell's ``PWD=``, NF-e access keys and Pix keys next to
``chave``, container ids and image digests.

A secret counts as found when SECRET findings cover it whole; a look-alike is intact
when no SECRET finding touches it (a Pix key next to ``chave`` is BR_PIX_EVP by design).

    python benchmarks/credentials.py [--seed 7] [--files 400]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import random
import string
import sys
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: Kinds with a fixed format (target recall 0.98); the others are known by their key
#: (target 0.95).
FIXED_FORMAT: Final = ("aws_access_key", "github_token", "gitlab_token", "slack_token",
                       "stripe_key", "sendgrid_key", "openai_key", "anthropic_key",
                       "google_api_key", "npm_token", "pypi_token", "twilio_key", "jwt",
                       "private_key", "azure_storage_key", "basic_auth",
                       "connection_string_password")
KEYWORD: Final = ("password_assignment", "secret_assignment", "aws_secret_key",
                  "kubernetes_secret", "bearer_token", "high_entropy")

ALNUM: Final = string.ascii_letters + string.digits
B64: Final = ALNUM + "+/"
B64URL: Final = ALNUM + "-_"
HEX: Final = "0123456789abcdef"


@dataclass
class File:
    """A generated file: its text, the secrets planted in it and the look-alikes."""

    kind: str
    text: str = ""
    secrets: list[tuple[int, int, str]] = field(default_factory=list)
    lookalikes: list[tuple[int, int, str]] = field(default_factory=list)

    def add(self, text: str) -> File:
        self.text += text
        return self

    def secret(self, value: str, kind: str) -> File:
        self.secrets.append((len(self.text), len(self.text) + len(value), kind))
        self.text += value
        return self

    def lookalike(self, value: str, kind: str) -> File:
        self.lookalikes.append((len(self.text), len(self.text) + len(value), kind))
        self.text += value
        return self


class Secrets:
    """Seeded generators of each secret kind and look-alike."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def chars(self, alphabet: str, count: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(count))

    # fixed formats ----------------------------------------------------------------
    def aws_access_key(self) -> str:
        return self.rng.choice(("AKIA", "ASIA")) + self.chars(string.ascii_uppercase + "234567", 16)

    def aws_secret_key(self) -> str:
        return self.chars(ALNUM + "/+", 40)

    def github_token(self) -> str:
        if self.rng.random() < 0.2:
            return "github_pat_" + self.chars(ALNUM + "_", 82)
        return self.rng.choice(("ghp_", "gho_", "ghs_")) + self.chars(ALNUM, 36)

    def gitlab_token(self) -> str:
        return "glpat-" + self.chars(ALNUM + "_-", 20)

    def slack_token(self) -> str:
        return (f"xoxb-{self.chars(string.digits, 11)}-{self.chars(string.digits, 12)}-"
                + self.chars(string.ascii_lowercase + string.digits, 24))

    def stripe_key(self) -> str:
        return self.rng.choice(("sk_live_", "rk_live_")) + self.chars(ALNUM, 24)

    def sendgrid_key(self) -> str:
        return f"SG.{self.chars(ALNUM + '_-', 22)}.{self.chars(ALNUM + '_-', 43)}"

    def openai_key(self) -> str:
        return "sk-proj-" + self.chars(ALNUM + "_-", 120)

    def anthropic_key(self) -> str:
        return "sk-ant-api03-" + self.chars(ALNUM + "_-", 93) + "AA"

    def google_api_key(self) -> str:
        return "AIza" + self.chars(ALNUM + "_-", 35)

    def npm_token(self) -> str:
        return "npm_" + self.chars(ALNUM, 36)

    def pypi_token(self) -> str:
        return "pypi-AgEIcHlwaS5vcmc" + self.chars(B64URL, 80)

    def twilio_key(self) -> str:
        return "SK" + self.chars(HEX, 32)

    def azure_key(self) -> str:
        return self.chars(B64, 86) + "=="

    def jwt(self) -> str:
        def part(value: dict[str, Any]) -> str:
            raw = json.dumps(value, separators=(",", ":")).encode()
            return base64.urlsafe_b64encode(raw).decode().rstrip("=")

        header = part({"alg": self.rng.choice(("HS256", "RS256")), "typ": "JWT"})
        body = part({"sub": self.chars(HEX, 12), "iat": self.rng.randrange(1_700_000_000,
                                                                           1_800_000_000)})
        return f"{header}.{body}.{self.chars(B64URL, 43)}"

    def private_key(self, escaped: bool = False) -> str:
        label = self.rng.choice(("RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY",
                                 "OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY"))
        lines = [self.chars(B64, 64) for _ in range(self.rng.randrange(4, 26))]
        lines.append(self.chars(B64, self.rng.randrange(8, 64)))
        newline = "\\n" if escaped else "\n"
        return newline.join([f"-----BEGIN {label}-----", *lines, f"-----END {label}-----"])

    def password(self) -> str:
        style = self.rng.randrange(4)
        if style == 0:
            return self.chars(ALNUM + "!@#%^*_-+", self.rng.randrange(10, 24))
        if style == 1:
            word = self.rng.choice(("Verao", "Brasil", "Sapato", "Cafe", "Mesa", "Janela"))
            return f"{word}{self.rng.randrange(10, 9999)}{self.rng.choice('!@#$%')}"
        if style == 2:
            return self.chars(string.ascii_lowercase + string.digits, self.rng.randrange(8, 16))
        return self.chars(B64, 32)

    def token(self) -> str:
        return self.chars(ALNUM, self.rng.randrange(24, 48))

    # look-alikes ----------------------------------------------------------------------
    def sha(self) -> str:
        return self.chars(HEX, 40)

    def integrity(self) -> str:
        return "sha512-" + base64.b64encode(hashlib.sha512(self.chars(ALNUM, 16).encode())
                                            .digest()).decode()

    def public_key(self) -> str:
        lines = [self.chars(B64, 64) for _ in range(6)]
        return "\n".join(["-----BEGIN PUBLIC KEY-----", *lines, "-----END PUBLIC KEY-----"])

    def certificate(self) -> str:
        lines = [self.chars(B64, 64) for _ in range(10)]
        return "\n".join(["-----BEGIN CERTIFICATE-----", *lines, "-----END CERTIFICATE-----"])

    def nfe_key(self) -> str:
        return self.chars(string.digits, 44)


class Generator:
    """Files of every kind, with their planted secrets and look-alikes."""

    def __init__(self, seed: int) -> None:
        self.s = Secrets(seed)
        self.rng = self.s.rng

    def env_file(self) -> File:
        s, f = self.s, File("env")
        f.add("# generated\nAPP_ENV=production\nDB_HOST=db.internal\nDB_PASSWORD=")
        f.secret(s.password(), "password_assignment").add("\nAWS_ACCESS_KEY_ID=")
        f.secret(s.aws_access_key(), "aws_access_key").add("\nAWS_SECRET_ACCESS_KEY=")
        f.secret(s.aws_secret_key(), "aws_secret_key").add("\nGITHUB_TOKEN=")
        f.secret(s.github_token(), "github_token").add("\nSTRIPE_KEY=")
        f.secret(s.stripe_key(), "stripe_key").add('\nexport SENHA_BANCO="')
        f.secret(s.password(), "password_assignment").add('"\nAPI_TOKEN=')
        f.secret(s.token(), "secret_assignment").add("\nCHAVE_API=")
        f.secret(s.token(), "secret_assignment").add("\nRELEASE_SHA=")
        f.lookalike(s.sha(), "git_sha").add("\nREQUEST_ID=")
        f.lookalike(str(uuid.UUID(int=self.rng.getrandbits(128))), "uuid")
        f.add("\nSMTP_PASSWORD=").lookalike("${SMTP_PASSWORD}", "placeholder")
        f.add("\nREDIS_PASSWORD=").lookalike("<password>", "placeholder")
        f.add("\nOPENAI_API_KEY=").secret(s.openai_key(), "openai_key").add("\n")
        return f

    def yaml_file(self) -> File:
        s, f = self.s, File("yaml")
        f.add("spring:\n  datasource:\n    url: jdbc:postgresql://db:5432/app\n"
              "    username: app\n    password: ")
        f.secret(s.password(), "password_assignment")
        f.add("\nslack:\n  token: ").secret(s.slack_token(), "slack_token")
        f.add("\n  signing_secret: ").secret(s.token(), "secret_assignment")
        f.add("\nsendgrid:\n  api_key: ").secret(s.sendgrid_key(), "sendgrid_key")
        f.add("\nbuild:\n  commit: ").lookalike(s.sha(), "git_sha")
        f.add("\nmail:\n  password: ").lookalike("********", "placeholder")
        f.add("\n  token: ").lookalike("${MAIL_TOKEN}", "placeholder")
        f.add("\n  password_min_length: 12\n")
        return f

    def json_file(self) -> File:
        s, f = self.s, File("json")
        f.add('{\n  "database": {"host": "db", "user": "app", "password": "')
        f.secret(s.password(), "password_assignment").add('"},\n  "gitlab": {"token": "')
        f.secret(s.gitlab_token(), "gitlab_token").add('"},\n  "google": {"apiKey": "')
        f.secret(s.google_api_key(), "google_api_key").add('"},\n  "anthropic_key": "')
        f.secret(s.anthropic_key(), "anthropic_key").add('",\n  "service_account": {'
                                                          '"private_key": "')
        f.secret(s.private_key(escaped=True), "private_key").add('"},\n  "trace": "')
        f.lookalike(str(uuid.UUID(int=self.rng.getrandbits(128))), "uuid")
        f.add('",\n  "logo": "data:image/png;base64,')
        f.lookalike(base64.b64encode(bytes(self.rng.getrandbits(8) for _ in range(90)))
                    .decode(), "base64_image")
        f.add('",\n  "senha": "').lookalike("<senha>", "placeholder")
        f.add('",\n  "labels": {"password": "Senha", "password_hint": "Digite sua senha"}\n}\n')
        return f

    def lockfile(self) -> File:
        s, f = self.s, File("lockfile")
        f.add('{\n  "packages": {\n    "node_modules/left-pad": {\n      "version": "1.3.0",\n'
              '      "integrity": "')
        f.lookalike(s.integrity(), "lockfile_hash").add('"\n    }\n  }\n}\n')
        f.add('[[package]]\nname = "requests"\nfiles = [{file = "requests.whl", hash = "sha256:')
        f.lookalike(s.chars(HEX, 64), "lockfile_hash").add('"}]\n')
        return f

    def kubernetes(self) -> File:
        s, f = self.s, File("kubernetes")
        f.add("apiVersion: v1\ndata:\n  password: ")
        f.secret(base64.b64encode(s.password().encode()).decode(), "kubernetes_secret")
        f.add("\n  username: ").secret(base64.b64encode(b"app").decode(), "kubernetes_secret")
        f.add("\n  connection: ")
        f.secret(base64.b64encode(s.token().encode()).decode(), "kubernetes_secret")
        f.add("\nkind: Secret\nmetadata:\n  name: db-credentials\n  namespace: prod\n"
              "  uid: ").lookalike(str(uuid.UUID(int=self.rng.getrandbits(128))), "uuid")
        f.add("\ntype: Opaque\n---\napiVersion: v1\ndata:\n  log_level: ")
        f.lookalike("debug", "configmap_value")
        f.add("\nkind: ConfigMap\nmetadata:\n  name: app-config\n")
        return f

    def shell_history(self) -> File:
        s, f = self.s, File("shell")
        f.add("cd /srv/app\ngit log -1 ").lookalike(s.sha(), "git_sha")
        f.add("\nmysql -u root --password=").secret(s.password(), "password_assignment")
        f.add(" prod\nexport NPM_TOKEN=").secret(s.npm_token(), "npm_token")
        f.add("\ncurl -H 'Authorization: Bearer ").secret(s.jwt(), "jwt")
        f.add("' https://api.internal/v1/orders\npsql postgres://app:")
        f.secret(s.password().replace("@", "#").replace("/", "_").replace("%", "x")
                 .replace("#", "x"), "connection_string_password")
        f.add("@db.internal:5432/prod\necho $PWD\nsudo -u app ls\n")
        f.add("twine upload --password ").secret(s.pypi_token(), "pypi_token").add(" dist/*\n")
        return f

    def http_headers(self) -> File:
        s, f = self.s, File("http")
        f.add("GET /v1/orders HTTP/1.1\nHost: api.internal\nAuthorization: Bearer ")
        f.secret(s.token(), "bearer_token")
        f.add("\nX-Request-Id: ").lookalike(str(uuid.UUID(int=self.rng.getrandbits(128))), "uuid")
        f.add('\nETag: "').lookalike(s.chars(HEX, 32), "etag")
        user_pass = base64.b64encode(f"deploy:{s.password()}".encode()).decode()
        f.add('"\n\nPOST /login HTTP/1.1\nAuthorization: Basic ').secret(user_pass, "basic_auth")
        f.add("\nX-Twilio-Key: ").secret(s.twilio_key(), "twilio_key").add("\n")
        return f

    def stack_trace(self) -> File:
        s, f = self.s, File("trace")
        f.add("2026-11-27 08:31:15.022 ERROR [main] c.e.Db - cannot connect\n"
              "java.sql.SQLException: Access denied for user 'app'@'10.0.0.5' "
              "(using password: YES)\n\tat com.mysql.cj.jdbc.ConnectionImpl.createNewIO("
              "ConnectionImpl.java:836)\nCaused by: url=jdbc:mysql://db:3306/app?user=app"
              "&password=")
        f.secret(s.password().replace("&", "x"), "password_assignment")
        f.add("&useSSL=true\nTraceback (most recent call last):\n  File \"app.py\", line 12,"
              " in <module>\npsycopg2.OperationalError: could not connect: "
              "postgresql://report:")
        f.secret(s.chars(ALNUM, 14), "connection_string_password")
        f.add("@10.0.0.9:5432/dw\nServer=sql01;Database=erp;User Id=sa;Password=")
        f.secret(s.password().replace(";", "x"), "password_assignment")
        f.add(";\nDefaultEndpointsProtocol=https;AccountName=logs;AccountKey=")
        f.secret(s.azure_key(), "azure_storage_key").add(";EndpointSuffix=core.windows.net\n")
        return f

    def sap(self) -> File:
        s, f = self.s, File("sap")
        f.add("[DEST_ERP]\nASHOST=s4hana-app01\nSYSNR=00\nCLIENT=100\nUSER=RFC_USER\nPASSWD=")
        f.secret(s.password(), "password_assignment")
        f.add("\nLANG=PT\n# DEFAULT.PFL\nSAPSYSTEMNAME = PRD\nrdisp/max_wprun_time = 600\n"
              "icm/server_port_0 = PROT=HTTPS,PORT=44300\nssl/pse_password = ")
        f.secret(s.password(), "password_assignment")
        f.add("\nNov 27 08:34:02 s4hana-app01 sudo: admin : TTY=pts/0 ; ")
        f.lookalike("PWD=/home/admin", "shell_pwd").add(" ; USER=root ; COMMAND=/bin/ls\n")
        f.add("nfe-emitter: autorizada chave de acesso ").lookalike(s.nfe_key(), "nfe_key")
        f.add("\npix: chave=").lookalike(str(uuid.UUID(int=self.rng.getrandbits(128))),
                                         "pix_key").add(" valor=10.00\n")
        return f

    def keys(self) -> File:
        s, f = self.s, File("keys")
        f.add("$ cat ~/.ssh/id_ed25519\n").secret(s.private_key(), "private_key")
        f.add("\n$ cat ~/.ssh/id_ed25519.pub\nssh-ed25519 ")
        f.lookalike("AAAAC3NzaC1lZDI1NTE5AAAAI" + s.chars(B64, 43), "public_key")
        f.add(" deploy\n$ cat server.pub\n").lookalike(s.public_key(), "public_key")
        f.add("\n$ cat server.crt\n").lookalike(s.certificate(), "certificate").add("\n")
        return f

    def server_files(self) -> File:
        """What ``cat`` and ``docker inspect`` show on a server: netrc, AWS and docker
        credentials, npm and git configuration, a migration, a diff, tomcat users."""
        s, f = self.s, File("server")
        f.add("$ cat ~/.netrc\nmachine api.internal login deploy password ")
        f.secret(s.password().replace(" ", "_"), "password_assignment")
        f.add("\n$ cat ~/.aws/credentials\n[default]\naws_access_key_id = ")
        f.secret(s.aws_access_key(), "aws_access_key").add("\naws_secret_access_key = ")
        f.secret(s.aws_secret_key(), "aws_secret_key")
        auth = base64.b64encode(f"deploy:{s.password()}".encode()).decode()
        f.add('\n$ cat ~/.docker/config.json\n{"auths": {"registry.internal": {"auth": "')
        f.secret(auth, "high_entropy").add('"}}}\n$ cat .npmrc\n//registry.npmjs.org/:_authToken=')
        f.secret(s.npm_token(), "npm_token").add("\n$ cat ~/.git-credentials\nhttps://deploy:")
        f.secret(s.github_token(), "github_token").add("@github.com\n$ docker inspect db\n")
        f.add('[{"Id": "').lookalike(s.chars(HEX, 64), "container_id")
        f.add('", "Image": "sha256:').lookalike(s.chars(HEX, 64), "image_digest")
        f.add('", "Config": {"Env": ["POSTGRES_PASSWORD=')
        f.secret(s.password().replace('"', "x").replace("\\", "x"), "password_assignment")
        f.add('", "PATH=/usr/local/sbin:/usr/local/bin", "REPLICATION_TOKEN=')
        f.secret(s.token(), "secret_assignment").add('"]}}]\n$ git log -p -1\ncommit ')
        f.lookalike(s.sha(), "git_sha").add("\n--- a/.env\n+++ b/.env\n-DB_PASSWORD=")
        f.secret(s.password(), "password_assignment").add("\n+DB_PASSWORD=")
        f.secret(s.password(), "password_assignment")
        f.add("\n$ history | tail -4\n  501  mysql -u root -p")
        f.secret(s.chars(ALNUM + "#!%", 12), "password_assignment")
        f.add(" erp\n  502  sshpass -p '").secret(s.password().replace("'", "x"),
                                                "password_assignment")
        f.add("' ssh deploy@app01\n  503  PGPASSWORD=").secret(s.password(),
                                                             "password_assignment")
        f.add(" psql -h db -U app\n  504  echo $PGPASSWORD\n$ cat migrate.sql\n"
              "CREATE USER 'report'@'%' IDENTIFIED BY '")
        f.secret(s.password().replace("'", "x"), "password_assignment")
        f.add("';\n$ cat conf/tomcat-users.xml\n<user username=\"admin\" password=\"")
        f.secret(s.password().replace('"', "x"), "password_assignment")
        f.add('" roles="manager-gui"/>\n$ cat application.properties\n'
              "spring.datasource.url=jdbc:postgresql://db:5432/app\n"
              "spring.datasource.password=")
        f.secret(s.password(), "password_assignment").add("\n")
        return f

    def files(self, count: int) -> list[File]:
        makers: list[Callable[[], File]] = [
            self.env_file, self.yaml_file, self.json_file, self.lockfile, self.kubernetes,
            self.shell_history, self.http_headers, self.stack_trace, self.sap, self.keys,
            self.server_files]
        return [makers[index % len(makers)]() for index in range(count)]


def _covered(span: tuple[int, int], found: list[tuple[int, int]]) -> bool:
    cursor = span[0]
    for start, end in sorted(found):
        if start > cursor:
            break
        cursor = max(cursor, end)
    return cursor >= span[1]


def evaluate(files: Iterable[File], analyze: Callable[[str], Iterable[Any]]) -> dict[str, Any]:
    """Recall per secret kind, per group, and the share of look-alikes left intact."""
    planted: Counter[str] = Counter()
    found_kinds: Counter[str] = Counter()
    lookalikes: Counter[str] = Counter()
    intact: Counter[str] = Counter()
    for item in files:
        findings = list(analyze(item.text))
        secret_spans = [(f.start, f.end) for f in findings if f.entity_type == "SECRET"]
        for start, end, kind in item.secrets:
            planted[kind] += 1
            found_kinds[kind] += _covered((start, end), secret_spans)
        for start, end, kind in item.lookalikes:
            lookalikes[kind] += 1
            intact[kind] += not any(s < end and e > start for s, e in secret_spans)

    def share(hits: Iterable[str], counter: Counter[str], total: Counter[str]) -> float:
        kinds = list(hits)
        count = sum(total[k] for k in kinds)
        return round(sum(counter[k] for k in kinds) / count, 4) if count else 1.0

    return {
        "kinds": {k: {"planted": planted[k], "found": found_kinds[k],
                      "recall": round(found_kinds[k] / planted[k], 4)} for k in sorted(planted)},
        "fixed_format_recall": share(FIXED_FORMAT, found_kinds, planted),
        "keyword_recall": share(KEYWORD, found_kinds, planted),
        "lookalikes": {k: {"count": lookalikes[k], "intact": intact[k]}
                       for k in sorted(lookalikes)},
        "lookalikes_intact": share(lookalikes, intact, lookalikes),
    }


def run(seed: int = 7, files: int = 400) -> dict[str, Any]:
    """Generate the files, analyse them with the default engine, return the figures."""
    from redactor import Settings
    from redactor.engine import Redactor

    engine = Redactor(Settings())
    return evaluate(Generator(seed).files(files), engine.analyze)


def report(result: dict[str, Any]) -> None:
    print(f"{'secret kind':<28} {'planted':>7} {'found':>6} {'recall':>7}")
    for kind, figures in result["kinds"].items():
        print(f"{kind:<28} {figures['planted']:>7} {figures['found']:>6} "
              f"{figures['recall']:>7.4f}")
    print(f"{'look-alike':<28} {'count':>7} {'intact':>6}")
    for kind, figures in result["lookalikes"].items():
        print(f"{kind:<28} {figures['count']:>7} {figures['intact']:>6}")
    print(f"SECRET recall: fixed formats {result['fixed_format_recall']:.4f} (target 0.98), "
          f"keyword passwords {result['keyword_recall']:.4f} (target 0.95); look-alikes "
          f"intact {result['lookalikes_intact']:.4f} (target 0.98)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--files", type=int, default=400)
    args = parser.parse_args(argv)
    report(run(args.seed, args.files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
