"""A seeded "log zoo": one synthetic corpus per log family, for throughput benchmarks.

Batch anonymisation speed must not depend on which words a log happens to use.  Each
family follows a documented public format (Apache's combined log format, nginx JSON
access logs, RFC 3164/5424 syslog, Spring Boot's console pattern, Docker's json-file
driver, PostgreSQL's ``log_line_prefix``, SAP SM21/dev_w traces, AWS CloudTrail
records, Windows event XML, Rails and Django request logs, structured JSON debug
lines) with the key names and message vocabulary those logs really carry.

About 1-3 % of the lines hold planted personal data: mostly CPFs (masked and bare)
and CNPJs (masked, bare and some alphanumeric), plus e-mail addresses, phone numbers,
client IP addresses and people's login names where the format naturally has them.
Each planted value is appended, exactly as written, to the list ``generate`` returns.
About 1-2 % of the lines hold near misses: CPFs and CNPJs with wrong check digits,
11-digit mobile numbers that fail the CPF check, order ids.

Everything is synthetic: identifiers come from :mod:`benchmarks.synthetic` (computed
from their check-digit rules), e-mail addresses are at ``exemplo.com.br`` or
``example.com``, names are drawn from the short lists of common Brazilian first and
last names below, planted client addresses from the documentation ranges of RFC 5737
(192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24).  The other lines name only
infrastructure: private (RFC 1918) addresses and service accounts (root, postgres,
DDIC, BATCH, ...), so that the planted values are the personal data of the corpus.

    python benchmarks/zoo.py [--mb 1] [--seed 7] [--out DIR] [FAMILY ...]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Final

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import synthetic as syn
from benchmarks import throughput

__all__ = ["FAMILIES", "Family", "generate"]

Line = Callable[[random.Random, list[str]], str]


@dataclass(frozen=True)
class Family:
    """One log family: its name, the documented format it follows, and a line maker."""

    name: str
    description: str
    extension: str
    line: Line


# Shared pieces -----------------------------------------------------------------------

#: Share of records holding planted values, and of records holding near misses.
PLANT: Final = 0.022
NEAR: Final = 0.015

_FIRST: Final = ("Ana", "Maria", "Juliana", "Fernanda", "Mariana", "Beatriz", "Camila",
                 "Letícia", "Aline", "Patrícia", "João", "José", "Pedro", "Lucas", "Gabriel",
                 "Carlos", "Paulo", "Rafael", "Bruno", "Marcelo")
_LAST: Final = ("Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves",
                "Pereira", "Lima", "Gomes", "Costa", "Ribeiro", "Martins", "Carvalho",
                "Araújo", "Rocha", "Barbosa", "Nascimento")
_DOMAINS: Final = ("exemplo.com.br", "example.com")
_TEST_NETS: Final = ("192.0.2", "198.51.100", "203.0.113")
_START: Final = datetime(2024, 11, 1, tzinfo=timezone(timedelta(hours=-3)))
_UTC: Final = UTC


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def _login(rng: random.Random, style: str | None = None) -> str:
    """A person's login: ``msouza``, ``maria.souza`` or SAP's ``MSOUZA``."""
    first, last = _fold(rng.choice(_FIRST)), _fold(rng.choice(_LAST))
    style = style or rng.choice(("initial", "dotted"))
    if style == "dotted":
        return f"{first}.{last}"
    login = first[0] + last
    return login.upper()[:12] if style == "sap" else login


def _email(rng: random.Random) -> str:
    first, last = _fold(rng.choice(_FIRST)), _fold(rng.choice(_LAST))
    suffix = str(rng.randint(1, 99)) if rng.random() < 0.3 else ""
    return f"{first}.{last}{suffix}@{rng.choice(_DOMAINS)}"


def _phone(rng: random.Random) -> str:
    return syn.phone_forms(rng)[rng.choice(("international", "international_parens", "parens"))]


def _client_ip(rng: random.Random) -> str:
    """A planted client address (RFC 5737 documentation ranges)."""
    return f"{rng.choice(_TEST_NETS)}.{rng.randint(1, 254)}"


def _private_ip(rng: random.Random) -> str:
    """An infrastructure address (RFC 1918)."""
    kind = rng.random()
    if kind < 0.6:
        return f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
    if kind < 0.85:
        return f"172.{rng.randint(16, 31)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
    return f"192.168.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


def _cpf(rng: random.Random) -> str:
    cpf = syn.random_cpf(rng)
    return syn.cpf_forms(cpf)["masked"] if rng.random() < 0.55 else cpf


def _cnpj(rng: random.Random) -> str:
    alnum = rng.random() < 0.2
    cnpj = syn.random_cnpj(rng, alphanumeric=alnum,
                           order=None if alnum or rng.random() < 0.2 else "0001")
    return syn.cnpj_forms(cnpj)["masked"] if rng.random() < 0.55 else cnpj


def _document(rng: random.Random) -> tuple[str, str]:
    """``("cpf", value)`` or ``("cnpj", value)``: a valid identifier as written."""
    return ("cpf", _cpf(rng)) if rng.random() < 0.6 else ("cnpj", _cnpj(rng))


def _near_miss(rng: random.Random) -> tuple[str, str]:
    """A look-alike that is no identifier: ``(kind, value)``."""
    draw = rng.random()
    if draw < 0.3:
        bad = syn.invalid_cpf(rng)
        return "cpf", syn.cpf_forms(bad)["masked"] if rng.random() < 0.5 else bad
    if draw < 0.55:
        bad = syn.invalid_cnpj(rng)
        return "cnpj", syn.cnpj_forms(bad)["masked"] if rng.random() < 0.5 else bad
    if draw < 0.8:
        return "telefone", syn.mobile_not_cpf(rng)
    return "pedido", syn.invalid_cpf(rng)  # an 11-digit order id


def _moment(rng: random.Random) -> datetime:
    return _START + timedelta(seconds=rng.randrange(28 * 86400),
                              microseconds=rng.randrange(1_000_000))


def _hex(rng: random.Random, digits: int) -> str:
    return f"{rng.getrandbits(4 * digits):0{digits}x}"


def _uuid(rng: random.Random) -> str:
    value = _hex(rng, 32)
    return f"{value[:8]}-{value[8:12]}-4{value[13:16]}-a{value[17:20]}-{value[20:]}"


def _order(rng: random.Random) -> str:
    return f"45{rng.randint(0, 10**8 - 1):08d}"  # 10 digits: no CPF shape


_AGENTS: Final = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/130.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "curl/8.5.0", "okhttp/4.12.0", "python-requests/2.32.3", "kube-probe/1.30",
    "Go-http-client/1.1", "PostmanRuntime/7.42.0",
)
_PATHS: Final = (
    "/", "/produtos", "/produtos/{n}", "/carrinho", "/checkout/pagamento", "/api/v1/pedidos",
    "/api/v1/pedidos/{o}", "/api/v1/pedidos/{o}/itens", "/api/v1/estoque?sku={n}",
    "/static/js/app.{h}.js", "/static/css/main.{h}.css", "/healthz", "/metrics",
    "/api/v1/frete?cep_destino={c}", "/login", "/minha-conta/pedidos?page={p}",
    "/favicon.ico", "/robots.txt", "/api/v2/catalogo?categoria=eletronicos&page={p}",
)
_REFERERS: Final = ("-", "https://www.exemplo.com.br/", "https://www.exemplo.com.br/produtos",
                    "https://www.google.com/", "https://loja.exemplo.com.br/carrinho",
                    "android-app://com.google.android.gm/")
_STATUS: Final = (200, 200, 200, 200, 200, 200, 201, 204, 301, 302, 304, 304, 400, 401, 403,
                  404, 404, 499, 500, 502, 503)


def _path(rng: random.Random) -> str:
    return rng.choice(_PATHS).format(n=rng.randint(1, 99999), o=_order(rng), h=_hex(rng, 8),
                                     c=syn.random_cep(rng).replace("-", ""),
                                     p=rng.randint(1, 40))


def _method(rng: random.Random) -> str:
    return rng.choices(("GET", "POST", "PUT", "DELETE", "HEAD"), (80, 12, 4, 2, 2))[0]


def _web_plant(rng: random.Random, planted: list[str]) -> tuple[str, str | None]:
    """A request target carrying a planted value, and maybe a planted client address."""
    draw = rng.random()
    ip = None
    if draw < 0.4:
        value = _cpf(rng)
        target = rng.choice(("/api/v1/clientes?cpf={v}", "/clientes/busca?cpf={v}&origem=loja",
                             "/api/v1/cadastro/validar?documento={v}")).format(v=value)
    elif draw < 0.7:
        value = _cnpj(rng)
        target = rng.choice(("/api/v1/fornecedores/{v}", "/nfe/consulta?cnpj={v}",
                             "/api/v1/empresas?cnpj={v}&incluir=socios")).format(v=value)
    elif draw < 0.85:
        value = _email(rng)
        target = rng.choice(("/api/v1/newsletter?email={v}", "/recuperar-senha?email={v}",
                             "/api/v1/clientes?email={v}&page=1")).format(v=value)
    elif draw < 0.93:
        value = _login(rng)
        target = f"/admin/usuarios?user={value}&acao=desbloquear"
    else:
        value = _client_ip(rng)
        target, ip = _path(rng), value
    planted.append(value)
    return target, ip


def _web_near(rng: random.Random) -> str:
    kind, value = _near_miss(rng)
    if kind == "telefone":
        return f"/api/v1/sms/status?protocolo={value}"
    if kind == "pedido":
        return f"/api/v1/pedidos/{value}/rastreio"
    return f"/api/v1/validar?{kind}={value}"


# 1. Apache / nginx combined ------------------------------------------------------------

def _apache_line(rng: random.Random, planted: list[str]) -> str:
    draw = rng.random()
    host, user = _private_ip(rng), "-"
    if draw < PLANT:
        method = "GET"
        if rng.random() < 0.08:
            target, user = _path(rng), _login(rng)
            planted.append(user)
        else:
            target, ip = _web_plant(rng, planted)
            host = ip or host
    else:
        method = _method(rng)
        target = _web_near(rng) if draw < PLANT + NEAR else _path(rng)
    when = _moment(rng).strftime("%d/%b/%Y:%H:%M:%S %z")
    status = rng.choice(_STATUS)
    size = "-" if status in (204, 304) else str(rng.randint(120, 250_000))
    return (f'{host} - {user} [{when}] "{method} {target} HTTP/1.1" {status} {size} '
            f'"{rng.choice(_REFERERS)}" "{rng.choice(_AGENTS)}"')


# 2. nginx / Envoy JSON access log --------------------------------------------------------

def _nginx_json_line(rng: random.Random, planted: list[str]) -> str:
    draw = rng.random()
    forwarded = "-"
    user = ""
    if draw < PLANT:
        target, ip = _web_plant(rng, planted)
        forwarded = ip or forwarded
        method = "GET"
        if rng.random() < 0.25:  # behind basic auth, nginx logs the user
            user = _login(rng)
            planted.append(user)
    else:
        method = _method(rng)
        target = _web_near(rng) if draw < PLANT + NEAR else _path(rng)
    status = rng.choice(_STATUS)
    upstream = f"{rng.randint(0, 2)}.{rng.randint(0, 999):03d}"
    record = {
        "time_local": _moment(rng).strftime("%d/%b/%Y:%H:%M:%S %z"),
        "remote_addr": _private_ip(rng),
        "remote_user": user,
        "request": f"{method} {target} HTTP/{rng.choice(('1.1', '2.0'))}",
        "status": status,
        "body_bytes_sent": rng.randint(0, 250_000),
        "request_time": round(float(upstream) + rng.randint(0, 9) / 1000, 3),
        "upstream_addr": f"{_private_ip(rng)}:8080",
        "upstream_response_time": upstream,
        "http_referer": rng.choice(_REFERERS).replace("-", ""),
        "http_user_agent": rng.choice(_AGENTS),
        "http_x_forwarded_for": forwarded,
        "request_id": _hex(rng, 32),
    }
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


# 3. syslog (RFC 3164, RFC 5424, journald short-iso) ----------------------------------

_HOSTS: Final = ("web-01", "web-02", "app-03", "db-01", "bastion", "worker-07", "k8s-node-2")
_SERVICE_LOGINS: Final = ("root", "ubuntu", "git", "jenkins", "ec2-user", "postgres", "backup")


def _key_fingerprint(rng: random.Random) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return "".join(rng.choice(alphabet) for _ in range(43))


def _syslog_body(rng: random.Random, planted: list[str], draw: float) -> tuple[str, str]:
    """``(program[pid], message)`` of one syslog record."""
    pid = rng.randint(300, 65000)
    if draw < PLANT:
        kind = rng.random()
        if kind < 0.2:
            user, ip = _login(rng), _client_ip(rng)
            planted += [user, ip]
            how = rng.choice(("Accepted publickey", "Accepted password", "Failed password"))
            return (f"sshd[{pid}]", f"{how} for {user} from {ip} port {rng.randint(1024, 65535)}"
                    f" ssh2: ED25519 SHA256:{_key_fingerprint(rng)}")
        if kind < 0.28:
            user = _login(rng)
            planted.append(user)
            return ("sudo", f"   {user} : TTY=pts/{rng.randint(0, 9)} ; PWD=/home/{user} ; "
                            "USER=root ; COMMAND=/usr/bin/systemctl restart nginx.service")
        if kind < 0.38:
            email = _email(rng)
            planted.append(email)
            return (f"postfix/smtp[{pid}]", f"{_hex(rng, 10).upper()}: to=<{email}>, "
                    f"relay=smtp.exemplo.com.br[{_private_ip(rng)}]:25, "
                    f"delay=0.{rng.randint(1, 99)}"
                    f", dsn=2.0.0, status=sent (250 2.0.0 Ok: queued)")
        name, value = _document(rng)
        planted.append(value)
        return (f"pedidos[{pid}]", f"cadastro atualizado: cliente {name}={value} "
                f"canal=loja pedido={_order(rng)}")
    if draw < PLANT + NEAR:
        name, value = _near_miss(rng)
        return (f"pedidos[{pid}]", f"validacao recusada: {name}={value} motivo=digito_invalido")
    kind = rng.random()
    if kind < 0.25:
        return (f"sshd[{pid}]", f"Accepted publickey for {rng.choice(_SERVICE_LOGINS)} from "
                f"{_private_ip(rng)} port {rng.randint(1024, 65535)} ssh2: RSA "
                f"SHA256:{_key_fingerprint(rng)}")
    if kind < 0.4:
        return (f"CRON[{pid}]", rng.choice((
            "(root) CMD (cd / && run-parts --report /etc/cron.hourly)",
            "(postgres) CMD (/usr/local/bin/backup-vendas.sh >> /var/log/backup.log 2>&1)",
            "pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)",
            "pam_unix(cron:session): session closed for user root")))
    if kind < 0.6:
        return ("systemd[1]", rng.choice((
            "Started Daily apt download activities.",
            "Starting Cleanup of Temporary Directories...",
            "logrotate.service: Deactivated successfully.", "Finished Rotate log files.",
            "Reloading The nginx HTTP and reverse proxy server...",
            f"session-{rng.randint(1, 9999)}.scope: Deactivated successfully.",
            "Started Session c1 of User postgres.")))
    if kind < 0.8:
        return ("kernel", f"[{rng.randint(1, 999999)}.{rng.randint(0, 999999):06d}] [UFW BLOCK] "
                f"IN=eth0 OUT= MAC={':'.join(_hex(rng, 2) for _ in range(14))} "
                f"SRC={_private_ip(rng)} DST={_private_ip(rng)} LEN={rng.randint(40, 1500)} "
                f"TOS=0x00 PREC=0x00 TTL={rng.randint(32, 128)} ID={rng.randint(0, 65535)} DF "
                f"PROTO=TCP SPT={rng.randint(1024, 65535)} DPT={rng.choice((22, 443, 5432))} "
                f"WINDOW=64240 RES=0x00 SYN URGP=0")
    return (f"pedidos[{pid}]", f"fila processada lote={rng.randint(1, 99999)} "
            f"mensagens={rng.randint(1, 500)} duracao_ms={rng.randint(1, 9999)} "
            f"pedido={_order(rng)}")


def _syslog_line(rng: random.Random, planted: list[str]) -> str:
    draw = rng.random()
    when, host = _moment(rng), rng.choice(_HOSTS)
    program, message = _syslog_body(rng, planted, draw)
    style = rng.random()
    if style < 0.5:  # RFC 3164
        stamp = f"{when:%b} {when.day:>2} {when:%H:%M:%S}"
        return f"<{rng.choice((38, 86, 13, 4, 30))}>{stamp} {host} {program}: {message}"
    if style < 0.75:  # RFC 5424
        app, _, rest = program.partition("[")
        procid = rest.rstrip("]") or "-"
        stamp = when.isoformat(timespec="milliseconds")
        return (f"<{rng.choice((165, 38, 86, 134))}>1 {stamp} {host}.exemplo.com.br {app} "
                f"{procid} - [origin ip=\"{_private_ip(rng)}\"] {message}")
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S%z")  # journalctl -o short-iso
    return f"{stamp} {host} {program}: {message}"


# 4. Java / Spring Boot with MDC and stack traces ---------------------------------------

_LOGGERS: Final = ("c.e.pedidos.web.PedidoController", "c.e.pedidos.service.PedidoService",
                   "c.e.clientes.service.CadastroService", "o.h.engine.jdbc.spi.SqlExceptionHelper",
                   "c.e.pagamentos.client.GatewayClient", "o.s.web.servlet.DispatcherServlet",
                   "com.zaxxer.hikari.pool.HikariPool", "c.e.estoque.kafka.EstoqueListener")
_JAVA_MESSAGES: Final = (
    "Pedido {o} criado com {i} itens, total={m} BRL",
    "Consulta ao estoque concluída em {ms} ms para sku={n}",
    "Completed initialization in {ms} ms",
    "HikariPool-1 - Pool stats (total=20, active={n}, idle=12, waiting=0)",
    "Pagamento do pedido {o} aprovado pela operadora nsu={n}",
    "Mensagem consumida do tópico estoque-eventos partition={p} offset={n}",
    "Sessão renovada; token de acesso expira em 900 s",
    "Frete calculado para pedido {o}: {m} BRL em {ms} ms",
)
_FRAMES: Final = (
    "com.exemplo.pedidos.service.PedidoService.criar(PedidoService.java:{n})",
    "com.exemplo.pedidos.web.PedidoController.post(PedidoController.java:{n})",
    "com.exemplo.clientes.repository.ClienteRepository.save(ClienteRepository.java:{n})",
    "org.springframework.transaction.interceptor.TransactionInterceptor.invoke("
    "TransactionInterceptor.java:{n})",
    "org.springframework.aop.framework.ReflectiveMethodInvocation.proceed("
    "ReflectiveMethodInvocation.java:{n})",
    "org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:{n})",
    "jakarta.servlet.http.HttpServlet.service(HttpServlet.java:{n})",
    "org.apache.catalina.core.ApplicationFilterChain.doFilter(ApplicationFilterChain.java:{n})",
    "org.hibernate.engine.jdbc.spi.SqlExceptionHelper.convert(SqlExceptionHelper.java:{n})",
    "org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:{n})",
)
_JAVA_USERS: Final = ("anonymous", "system", "batch", "")


def _java_message(rng: random.Random) -> str:
    return rng.choice(_JAVA_MESSAGES).format(
        o=_order(rng), n=rng.randint(1, 99999), i=rng.randint(1, 30),
        m=f"{rng.randint(1, 9999)}.{rng.randint(0, 99):02d}",
        ms=rng.randint(1, 9999), p=rng.randint(0, 11))


def _stack(rng: random.Random, cause: str) -> str:
    frames = [f"\tat {rng.choice(_FRAMES).format(n=rng.randint(20, 900))}"
              for _ in range(rng.randint(4, 9))]
    tail = [f"\tat {rng.choice(_FRAMES).format(n=rng.randint(20, 900))}"
            for _ in range(rng.randint(2, 4))]
    return "\n".join([*frames, f"Caused by: {cause}", *tail,
                      f"\t... {rng.randint(20, 90)} common frames omitted"])


def _java_line(rng: random.Random, planted: list[str]) -> str:
    draw = rng.random()
    when = _moment(rng).isoformat(timespec="milliseconds")
    pid = rng.randint(1, 9)
    user, level, logger = rng.choice(_JAVA_USERS), "INFO", rng.choice(_LOGGERS)
    message = _java_message(rng)
    trace = ""
    if draw < PLANT:
        kind = rng.random()
        if kind < 0.25:
            user = _login(rng)
            planted.append(user)
        elif kind < 0.4:
            email = _email(rng)
            planted.append(email)
            message = f"E-mail de confirmação enviado para {email} pedido={_order(rng)}"
        elif kind < 0.5:
            phone = _phone(rng)
            planted.append(phone)
            message = f"SMS de rastreio agendado telefone={phone} pedido={_order(rng)}"
        elif kind < 0.75:
            name, value = _document(rng)
            planted.append(value)
            message = f"Cadastro atualizado cliente {name.upper()} {value} uf=SP"
        else:
            name, value = _document(rng)
            planted.append(value)
            level, message = "ERROR", "Falha ao gravar cliente"
            trace = ("\norg.springframework.dao.DataIntegrityViolationException: could not "
                     "execute statement [ERROR: duplicate key value violates unique constraint "
                     f"\"uk_cliente_{name}\"]\n" + _stack(
                         rng, "org.postgresql.util.PSQLException: ERROR: duplicate key value "
                         f"violates unique constraint \"uk_cliente_{name}\"  Detail: Key "
                         f"({name})=({value}) already exists."))
    elif draw < PLANT + NEAR:
        name, value = _near_miss(rng)
        level, message = "WARN", f"Documento rejeitado na validação: {name}={value}"
    elif draw < PLANT + NEAR + 0.03:
        level, message = "ERROR", f"Erro ao processar pedido {_order(rng)}"
        trace = ("\njava.lang.IllegalStateException: Estoque insuficiente para sku="
                 f"{rng.randint(1, 99999)}\n" + _stack(
                     rng, "java.net.SocketTimeoutException: Read timed out"))
    elif rng.random() < 0.15:
        level = rng.choice(("DEBUG", "WARN"))
    mdc = (f"[traceId={_hex(rng, 32)} spanId={_hex(rng, 16)} user={user} "
           f"session={_hex(rng, 24)}]")
    return (f"{when} {level:>5} {rng.randint(1000, 65535)} --- [pedidos] "
            f"[nio-8080-exec-{pid}] {logger:<40} {mdc} : {message}{trace}")


# 5. Kubernetes container logs (Docker json-file driver) -------------------------------

_GO_MESSAGES: Final = ("request served", "cache refreshed", "lease renewed", "job done")


def _k8s_app_line(rng: random.Random, planted: list[str], draw: float,
                  when: datetime) -> str:
    stamp = when.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    style = rng.random()
    if draw < PLANT:
        kind = rng.random()
        if kind < 0.6:
            name, value = _document(rng)
            fields = f"{name}={value} pedido={_order(rng)}"
        elif kind < 0.8:
            value = _email(rng)
            fields = f"email={value} template=boas-vindas"
        else:
            value = _phone(rng)
            fields = f'telefone="{value}" canal=whatsapp'
        planted.append(value)
        return (f'time={stamp} level=info msg="cliente atualizado" {fields} '
                f'duration_ms={rng.randint(1, 999)}')
    if draw < PLANT + NEAR:
        name, value = _near_miss(rng)
        return f'time={stamp} level=warn msg="documento invalido" {name}={value}'
    if style < 0.45:  # Go logfmt (log/slog TextHandler)
        return (f'time={stamp} level={rng.choice(("info", "info", "debug", "warn"))} '
                f'msg="{rng.choice(_GO_MESSAGES)}"'
                f' method={_method(rng)} path={_path(rng)} status={rng.choice(_STATUS)} '
                f'duration_ms={rng.randint(1, 999)} trace_id={_hex(rng, 32)}')
    if style < 0.75:  # Python logging
        return (f"{stamp.replace('T', ' ')[:23]} INFO [worker-{rng.randint(1, 8)}] "
                f"tasks.notas: nota fiscal {rng.randint(1, 999999)} emitida para pedido "
                f"{_order(rng)} em {rng.randint(1, 9999)} ms")
    return (f'{{"level":30,"time":{int(when.timestamp() * 1000)},"pid":{rng.randint(1, 99)},'
            f'"hostname":"checkout-{_hex(rng, 10)}-{_hex(rng, 5)}",'
            f'"reqId":"req-{rng.randint(1, 9999)}","msg":"request completed",'
            f'"responseTime":{rng.randint(1, 999)}.{rng.randint(0, 99)}}}')


def _k8s_line(rng: random.Random, planted: list[str]) -> str:
    when = _moment(rng).astimezone(_UTC)
    log = _k8s_app_line(rng, planted, rng.random(), when)
    record = {"log": log + "\n", "stream": rng.choice(("stdout", "stdout", "stderr")),
              "time": when.strftime("%Y-%m-%dT%H:%M:%S.%f") + f"{rng.randint(0, 999):03d}Z"}
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    # Go's encoding/json writes <, > and & as \u escapes.
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# 6. PostgreSQL ----------------------------------------------------------------------

_PG_ROUTINE: Final = (
    "LOG:  duration: {d} ms  statement: SELECT p.id, p.status, p.total FROM pedidos p "
    "WHERE p.id = {o}",
    "LOG:  duration: {d} ms  execute <unnamed>: SELECT * FROM estoque WHERE sku = $1",
    "DETAIL:  parameters: $1 = '{n}'",
    "LOG:  statement: UPDATE pedidos SET status = 'faturado', atualizado_em = now() "
    "WHERE id = {o}",
    "LOG:  connection authorized: user=app database=vendas application_name=pedidos-api",
    "LOG:  disconnection: session time: 0:00:{s:02d}.{n3:03d} user=app database=vendas "
    "host={ip} port={port}",
    "LOG:  duration: {d} ms  statement: COMMIT",
)
_PG_SYSTEM: Final = (
    "LOG:  checkpoint starting: time",
    "LOG:  checkpoint complete: wrote {n3} buffers (0.{n3}%); 0 WAL file(s) added, 0 removed, "
    "1 recycled; write={d} s, sync=0.004 s, total={d} s",
    "LOG:  automatic vacuum of table \"vendas.public.pedidos\": index scans: 1",
    "LOG:  connection received: host={ip} port={port}",
)


def _pg_prefix(rng: random.Random, when: datetime, pid: int, user: str | None) -> str:
    stamp = when.strftime("%Y-%m-%d %H:%M:%S.") + f"{when.microsecond // 1000:03d} -03"
    if user is None:  # %q: a background process has no session part
        return f"{stamp} [{pid}] "
    if pid % 3 == 0:  # a second server: log_line_prefix = '%m [%p] user=%u db=%d '
        return f"{stamp} [{pid}] user={user} db=vendas "
    return f"{stamp} [{pid}] {user}@vendas "


def _pg_fill(rng: random.Random, template: str) -> str:
    return template.format(d=f"{rng.randint(0, 999)}.{rng.randint(0, 999):03d}", o=_order(rng),
                           n=rng.randint(1, 99999), s=rng.randint(0, 59),
                           n3=rng.randint(0, 999), ip=_private_ip(rng),
                           port=rng.randint(1024, 65535))


def _pg_line(rng: random.Random, planted: list[str]) -> str:
    draw = rng.random()
    when, pid = _moment(rng), rng.randint(1000, 99999)
    user = "app"
    if draw < PLANT:
        kind = rng.random()
        name, value = _document(rng)
        if kind < 0.2:
            user = _login(rng)
            planted.append(user)
            body = _pg_fill(rng, rng.choice(_PG_ROUTINE))
        elif kind < 0.45:
            planted.append(value)
            body = (f"LOG:  duration: {rng.randint(0, 99)}.{rng.randint(0, 999):03d} ms  "
                    f"statement: SELECT id, nome, email FROM clientes WHERE {name} = '{value}'")
        elif kind < 0.6:
            email = _email(rng)
            planted += [value, email]
            body = (f"LOG:  statement: INSERT INTO clientes ({name}, email, criado_em) VALUES "
                    f"('{value}', '{email}', now())")
        else:
            planted.append(value)
            prefix = _pg_prefix(rng, when, pid, user)
            return "\n".join((
                f"{prefix}ERROR:  duplicate key value violates unique constraint "
                f"\"clientes_{name}_key\"",
                f"{prefix}DETAIL:  Key ({name})=({value}) already exists.",
                f"{prefix}STATEMENT:  INSERT INTO clientes ({name}, nome, criado_em) "
                "VALUES ($1, $2, now())"))
    elif draw < PLANT + NEAR:
        name, value = _near_miss(rng)
        column = {"pedido": "pedido_id", "telefone": "protocolo"}.get(name, name)
        body = (f"LOG:  duration: {rng.randint(0, 99)}.{rng.randint(0, 999):03d} ms  "
                f"statement: SELECT count(*) FROM validacoes WHERE {column} = '{value}'")
    elif draw < 0.2:
        return _pg_prefix(rng, when, pid, None) + _pg_fill(rng, rng.choice(_PG_SYSTEM))
    else:
        user = rng.choice(("app", "app", "app", "postgres", "replicator", "metabase"))
        body = _pg_fill(rng, rng.choice(_PG_ROUTINE))
    return _pg_prefix(rng, when, pid, user) + body


# 7. SAP (SM21 system log, dev_w* traces, STAD records) -------------------------------

_SAP_SERVICE: Final = ("DDIC", "BATCH", "WF-BATCH", "SAP_WFRT", "ALEREMOTE", "SAPSYS")
_TCODES: Final = ("VA01", "VA02", "XD02", "FB60", "MIGO", "ME21N", "SE38", "SM37", "VF01",
                  "MM03", "BP", "FBL1N")
_SM21_TEXTS: Final = (
    ("AB0", "Run-time error \"TSV_TNEW_PAGE_ALLOC_FAILED\" occurred"),
    ("AB1", "> Short dump \"{d}\" generated"),
    ("R49", "Communication error, CPIC return code 020, SAP return code 223"),
    ("BZY", "Unexpected return value 110 when calling an external procedure"),
    ("EEA", "Transaction Canceled 00 671 ( ABAP/4 processor: SYNTAX_ERROR )"),
    ("GI0", "Error calling the central lock handler"),
    ("Q0I", "Operating system call recv failed (error no. 104)"),
    ("D01", "Transaction Canceled SY 002 ( Update terminated )"),
)
_DEV_W: Final = (
    "M  ThIRollIn: roll in of T{t}/M0 U{n} (fixed context)",
    "M  ThCheckReqInfo: message send to user {u} failed",
    "B  db_con_commit received, conn id 000000000 (R/3)",
    "C  Database connection is ok, commit time {n} usec",
    "A  TH VERBOSE LEVEL FULL",
    "M  *** ERROR => ThIAMode: wrong mode ({n}) [thxxmode.c   {n}]",
    "S  *** init spool environment",
    "N  SncInit(): Initializing Secure Network Communication (SNC)",
    "A  ABAP runtime: program SAPMV45A, proc T{t}, {n} ms",
)


def _sap_line(rng: random.Random, planted: list[str]) -> str:
    draw = rng.random()
    when = _moment(rng)
    user, tcode = rng.choice(_SAP_SERVICE), rng.choice(_TCODES)
    wp = rng.randint(0, 40)
    wp_type = rng.choice(("DIA", "DIA", "BTC", "UPD", "SPO"))
    if draw < PLANT:
        kind = rng.random()
        if kind < 0.7:
            cpf, cnpj = syn.random_cpf(rng), syn.random_cnpj(rng, order="0001")
            if rng.random() < 0.5:
                field, value = "STCD2", cpf
            else:
                field, value = "STCD1", (cnpj if rng.random() < 0.7 else
                                         syn.random_cnpj(rng, alphanumeric=True))
            planted.append(value)
            return (f"{when:%Y%m%d %H%M%S} SAPMF02D XD02 USER={user} KNA1 changed "
                    f"{field}={value} KUNNR={rng.randint(0, 10**10 - 1):010d} LAND1=BR "
                    f"BUKRS=1000 VKORG=1{rng.randint(0, 999):03d}")
        user = _login(rng, "sap")
        planted.append(user)
        if kind < 0.88:
            code, text = rng.choice((("US1", f"User {user} locked due to incorrect logon"),
                                     ("US3", f"User {user} logged on from terminal "
                                             f"{rng.choice(('NB', 'WS'))}{rng.randint(100, 999)}"),
                                     ("AB0", "Run-time error \"DBSQL_DUPLICATE_KEY_ERROR\" "
                                             "occurred")))
            return (f"{when:%H:%M:%S} {wp_type} {wp:03d} 100 {user:<12} {tcode:<4} {code} "
                    f"{text}")
        return (f"{when:%d.%m.%Y %H:%M:%S} {wp_type} {wp:03d} {user:<12} {tcode:<5} "
                f"SAPMV45A resp={rng.randint(50, 9999)} ms cpu={rng.randint(1, 999)} ms "
                f"db={rng.randint(1, 999)} ms kbytes={rng.randint(1, 9999)} steps=1")
    if draw < PLANT + NEAR:
        near, value = _near_miss(rng)
        field = {"cpf": "STCD2", "cnpj": "STCD1"}.get(near, "TELF2")
        return (f"{when:%Y%m%d %H%M%S} SAPMF02D XD02 USER={user} KNA1 check failed "
                f"{field}={value} MSG=F2 102 KUNNR={rng.randint(0, 10**10 - 1):010d}")
    style = rng.random()
    if style < 0.4:
        code, text = rng.choice(_SM21_TEXTS)
        text = text.format(d=rng.choice(("MESSAGE_TYPE_X", "TIME_OUT", "SYSTEM_NO_ROLL")))
        return (f"{when:%H:%M:%S} {wp_type} {wp:03d} 100 {user:<12} {tcode:<4} {code} {text}")
    if style < 0.7:
        comp, _, text = rng.choice(_DEV_W).format(
            t=rng.randint(0, 99), n=rng.randint(1, 9999), u=user).partition("  ")
        trace = f"{comp}  [Thr {rng.randint(10**14, 10**15 - 1)}] {text}"
        if rng.random() < 0.3:  # dev_w* traces stamp their entries on a line of their own
            stamp = f"{when:%a %b %d %H:%M:%S}:{when.microsecond // 1000:03d} {when:%Y}"
            trace = f"{comp} {stamp}\n{trace}"
        return trace
    if style < 0.85:
        return (f"{when:%d.%m.%Y %H:%M:%S} {wp_type} {wp:03d} {user:<12} {tcode:<5} "
                f"RSBTCRTE resp={rng.randint(50, 9999)} ms cpu={rng.randint(1, 999)} ms "
                f"db={rng.randint(1, 999)} ms kbytes={rng.randint(1, 9999)} "
                f"steps={rng.randint(1, 20)}")
    return (f"{when:%Y%m%d %H%M%S} SAPMV45A VA01 USER={user} MSG=V1 311 Sales document "
            f"{rng.randint(0, 10**10 - 1):010d} saved SOLD_TO={rng.randint(0, 10**10 - 1):010d}"
            f" PLANT=BR{rng.randint(1, 99):02d}")


# 8. AWS CloudTrail ------------------------------------------------------------------

_ACCOUNT: Final = "123456789012"
_CT_EVENTS: Final = (
    ("s3.amazonaws.com", "GetObject", True),
    ("s3.amazonaws.com", "PutObject", False),
    ("sts.amazonaws.com", "AssumeRole", False),
    ("ec2.amazonaws.com", "DescribeInstances", True),
    ("kms.amazonaws.com", "Decrypt", True),
    ("dynamodb.amazonaws.com", "GetItem", True),
    ("logs.amazonaws.com", "CreateLogStream", False),
    ("lambda.amazonaws.com", "Invoke", False),
)
_ALNUM_UPPER: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def _aws_id(rng: random.Random, prefix: str) -> str:
    return prefix + "".join(rng.choice(_ALNUM_UPPER) for _ in range(16))


def _ct_parameters(rng: random.Random, name: str) -> dict[str, object] | None:
    if name in ("GetObject", "PutObject"):
        return {"bucketName": "exemplo-notas-fiscais",
                "key": f"nfe/2024/11/{_order(rng)}.xml", "Host": "exemplo-notas-fiscais.s3."
                "sa-east-1.amazonaws.com"}
    if name == "AssumeRole":
        return {"roleArn": f"arn:aws:iam::{_ACCOUNT}:role/deploy-pedidos",
                "roleSessionName": f"gha-{rng.randint(10**8, 10**9 - 1)}", "durationSeconds": 3600}
    if name == "DescribeInstances":
        return {"instancesSet": {}, "filterSet": {"items": [{"name": "tag:app", "valueSet": {
            "items": [{"value": "pedidos"}]}}]}}
    if name == "Decrypt":
        return {"encryptionAlgorithm": "SYMMETRIC_DEFAULT"}
    if name == "GetItem":
        return {"tableName": "pedidos", "key": {"pedido_id": {"S": _order(rng)}}}
    if name == "Invoke":
        return {"functionName": f"arn:aws:lambda:sa-east-1:{_ACCOUNT}:function:emitir-nfe"}
    return {"logGroupName": "/aws/lambda/emitir-nfe",
            "logStreamName": f"2024/11/26/[$LATEST]{_hex(rng, 32)}"}


def _cloudtrail_line(rng: random.Random, planted: list[str]) -> str:
    draw = rng.random()
    source, name, read_only = rng.choice(_CT_EVENTS)
    parameters = _ct_parameters(rng, name)
    source_ip, agent = _private_ip(rng), rng.choice((
        "aws-cli/2.22.4 md/awscrt#0.22.0 ua/2.0 os/linux#6.8.0 md/arch#x86_64 lang/python#3.12.7",
        "aws-sdk-java/2.29.6 Linux/5.10 OpenJDK_64-Bit_Server_VM/21.0.5+11-LTS Java/21.0.5",
        "Boto3/1.35.68 md/Botocore#1.35.68 ua/2.0 os/linux#5.10 lang/python#3.11.10",
        "console.amazonaws.com"))
    role = rng.choice(("pedidos-api", "emitir-nfe-lambda", "gha-deploy"))
    identity: dict[str, object] = {
        "type": "AssumedRole", "principalId": f"{_aws_id(rng, 'AROA')}:{role}",
        "arn": f"arn:aws:sts::{_ACCOUNT}:assumed-role/{role}/{role}",
        "accountId": _ACCOUNT, "accessKeyId": _aws_id(rng, "ASIA")}
    if draw < PLANT:
        kind = rng.random()
        if kind < 0.25:
            user = _login(rng, "dotted")
            planted.append(user)
            identity = {"type": "IAMUser", "principalId": _aws_id(rng, "AIDA"),
                        "arn": f"arn:aws:iam::{_ACCOUNT}:user/{user}", "accountId": _ACCOUNT,
                        "accessKeyId": _aws_id(rng, "AKIA"), "userName": user}
            source_ip = _client_ip(rng)
            planted.append(source_ip)
        elif kind < 0.85:
            doc, value = _document(rng)
            planted.append(value)
            if rng.random() < 0.5:
                source, name, read_only = "dynamodb.amazonaws.com", "GetItem", True
                parameters = {"tableName": "clientes", "key": {doc: {"S": value}}}
            else:
                source, name, read_only = "s3.amazonaws.com", "GetObject", True
                parameters = {"bucketName": "exemplo-cadastro",
                              "key": f"documentos/{doc}/{value}/comprovante.pdf"}
        else:
            email = _email(rng)
            planted.append(email)
            source, name, read_only = "ses.amazonaws.com", "VerifyEmailIdentity", False
            parameters = {"emailAddress": email}
    elif draw < PLANT + NEAR:
        near, value = _near_miss(rng)
        source, name, read_only = "dynamodb.amazonaws.com", "GetItem", True
        parameters = {"tableName": "validacoes", "key": {near: {"S": value}}}
    record = {
        "eventVersion": "1.10", "userIdentity": identity,
        "eventTime": _moment(rng).astimezone(_UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "eventSource": source, "eventName": name, "awsRegion": "sa-east-1",
        "sourceIPAddress": source_ip, "userAgent": agent, "requestParameters": parameters,
        "responseElements": None, "requestID": _uuid(rng), "eventID": _uuid(rng),
        "readOnly": read_only, "eventType": "AwsApiCall",
        "managementEvent": source not in ("s3.amazonaws.com", "dynamodb.amazonaws.com"),
        "recipientAccountId": _ACCOUNT,
        "eventCategory": "Management" if source not in ("s3.amazonaws.com",
                                                        "dynamodb.amazonaws.com") else "Data",
    }
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


# 9. Windows event log (XML, one event a line) ----------------------------------------

_EVENT_NS: Final = "http://schemas.microsoft.com/win/2004/08/events/event"
_SECURITY_GUID: Final = "{54849625-5478-4994-A5BA-3E3B0328C30D}"
_WIN_ACCOUNTS: Final = ("SYSTEM", "LOCAL SERVICE", "NETWORK SERVICE", "ANONYMOUS LOGON",
                        "WS-0231$", "SRV-APP01$", "DC01$")
_COMPUTERS: Final = ("DC01.corp.exemplo.com.br", "SRV-APP01.corp.exemplo.com.br",
                     "WS-0231.corp.exemplo.com.br")


def _sid(rng: random.Random) -> str:
    return (f"S-1-5-21-{rng.randint(10**9, 4 * 10**9)}-{rng.randint(10**9, 4 * 10**9)}-"
            f"{rng.randint(10**9, 4 * 10**9)}-{rng.randint(1000, 9999)}")


def _event(rng: random.Random, provider: str, event_id: int, channel: str,
           data: list[tuple[str | None, str]]) -> str:
    when = _moment(rng).astimezone(_UTC)
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{rng.randint(0, 10**7 - 1):07d}Z"
    guid = f' Guid="{_SECURITY_GUID}"' if provider.endswith("Security-Auditing") else ""
    items = "".join(f'<Data Name="{key}">{value}</Data>' if key else f"<Data>{value}</Data>"
                    for key, value in data)
    return (f'<Event xmlns="{_EVENT_NS}"><System><Provider Name="{provider}"{guid}/>'
            f"<EventID>{event_id}</EventID><Version>{rng.choice((0, 2))}</Version><Level>"
            f"{4 if event_id < 5000 else 2}</Level><Task>12544</Task><Opcode>0</Opcode>"
            f"<Keywords>0x8020000000000000</Keywords><TimeCreated SystemTime=\"{stamp}\"/>"
            f"<EventRecordID>{rng.randint(10**6, 10**8)}</EventRecordID><Correlation/>"
            f'<Execution ProcessID="{rng.randint(4, 9999)}" ThreadID="{rng.randint(4, 9999)}"/>'
            f"<Channel>{channel}</Channel><Computer>{rng.choice(_COMPUTERS)}</Computer>"
            f"<Security/></System><EventData>{items}</EventData></Event>")


def _logon(rng: random.Random, event_id: int, user: str, ip: str) -> str:
    return _event(rng, "Microsoft-Windows-Security-Auditing", event_id, "Security", [
        ("SubjectUserSid", "S-1-5-18"), ("SubjectUserName", "DC01$"),
        ("TargetUserSid", _sid(rng)), ("TargetUserName", user), ("TargetDomainName", "EXEMPLO"),
        ("LogonType", str(rng.choice((2, 3, 3, 10)))), ("LogonProcessName", "NtLmSsp"),
        ("WorkstationName", f"WS-{rng.randint(1, 9999):04d}"), ("IpAddress", ip),
        ("IpPort", str(rng.randint(1024, 65535)))])


def _windows_line(rng: random.Random, planted: list[str]) -> str:
    draw = rng.random()
    if draw < PLANT:
        kind = rng.random()
        if kind < 0.3:
            user, ip = _login(rng), _client_ip(rng)
            planted += [user, ip]
            return _logon(rng, rng.choice((4624, 4625, 4740)), user, ip)
        doc, value = _document(rng)
        planted.append(value)
        if kind < 0.7:
            return _event(rng, "Microsoft-Windows-Security-Auditing", 4688, "Security", [
                ("SubjectUserName", "svc_erp"), ("NewProcessName",
                                                 r"C:\Program Files\Exemplo\erp-cli.exe"),
                ("CommandLine", rf'"C:\Program Files\Exemplo\erp-cli.exe" --consultar-{doc} '
                                f"{value}")])
        return _event(rng, "ExemploERP", 1001, "Application",
                      [(None, f"Falha ao emitir NF-e para {doc.upper()} {value}: rejeição 539")])
    if draw < PLANT + NEAR:
        doc, value = _near_miss(rng)
        return _event(rng, "ExemploERP", 1002, "Application",
                      [(None, f"Documento inválido ignorado: {doc}={value}")])
    kind = rng.random()
    if kind < 0.5:
        return _logon(rng, rng.choice((4624, 4624, 4634, 4672)), rng.choice(_WIN_ACCOUNTS),
                      rng.choice(("-", "::1", "127.0.0.1", _private_ip(rng))))
    if kind < 0.8:
        service = rng.choice(("Windows Update", "Print Spooler", "Exemplo ERP Agent",
                              "Background Intelligent Transfer Service"))
        return _event(rng, "Service Control Manager", 7036, "System",
                      [("param1", service), ("param2", rng.choice(("running", "stopped")))])
    return _event(rng, "Microsoft-Windows-Security-Auditing", 4688, "Security", [
        ("SubjectUserName", rng.choice(("SYSTEM", "svc_backup"))),
        ("NewProcessName", r"C:\Windows\System32\svchost.exe"),
        ("CommandLine", r"C:\Windows\system32\svchost.exe -k netsvcs -p -s Schedule")])


# 10. Django and Rails request logs -----------------------------------------------------

_RAILS_CONTROLLERS: Final = (("ClientesController#show", "/clientes/{n}"),
                             ("PedidosController#index", "/pedidos?page={p}"),
                             ("ProdutosController#show", "/produtos/{n}"),
                             ("CarrinhoController#update", "/carrinho"),
                             ("Api::V1::FreteController#create", "/api/v1/frete"))


def _rails_request(rng: random.Random, planted: list[str], draw: float) -> str:
    when = _moment(rng)
    rid = _uuid(rng)
    pid = rng.randint(1000, 65535)
    head = f"I, [{when:%Y-%m-%dT%H:%M:%S}.{when.microsecond:06d} #{pid}]  INFO -- : [{rid}] "
    controller, path = rng.choice(_RAILS_CONTROLLERS)
    path = path.format(n=rng.randint(1, 99999), p=rng.randint(1, 40))
    ip = _private_ip(rng)
    params = f'{{"id"=>"{rng.randint(1, 99999)}"}}'
    query = f'  Pedido Load ({rng.randint(0, 9)}.{rng.randint(0, 9)}ms)  SELECT "pedidos".* ' \
            f'FROM "pedidos" WHERE "pedidos"."id" = $1 LIMIT $2  ' \
            f'[["id", {rng.randint(1, 99999)}], ' \
            '["LIMIT", 1]]'
    if draw < PLANT:
        kind = rng.random()
        controller = "ClientesController#index"
        if kind < 0.7:
            doc, value = _document(rng)
            planted.append(value)
            path, params = f"/clientes?{doc}={value}", f'{{"{doc}"=>"{value}"}}'
            query = (f'  Cliente Load ({rng.randint(0, 9)}.{rng.randint(0, 9)}ms)  SELECT '
                     f'"clientes".* FROM "clientes" WHERE "clientes"."{doc}" = $1 LIMIT $2  '
                     f'[["{doc}", "{value}"], ["LIMIT", 1]]')
        elif kind < 0.85:
            email = _email(rng)
            planted.append(email)  # filter_parameters hides it in Parameters, not in the path
            path, params = f"/clientes?email={email}", '{"email"=>"[FILTERED]"}'
        else:
            ip = _client_ip(rng)
            planted.append(ip)
    elif draw < PLANT + NEAR:
        doc, value = _near_miss(rng)
        path, params = f"/pedidos/rastreio?{doc}={value}", f'{{"{doc}"=>"{value}"}}'
    method = "GET" if "#update" not in controller and "#create" not in controller else "POST"
    total = rng.randint(3, 900)
    lines = [f'{head}Started {method} "{path}" for {ip} at {when:%Y-%m-%d %H:%M:%S %z}',
             f"{head}Processing by {controller} as {rng.choice(('HTML', 'JSON', 'TURBO_STREAM'))}",
             f"{head}  Parameters: {params}",
             f"D, [{when:%Y-%m-%dT%H:%M:%S}.{when.microsecond:06d} #{pid}] DEBUG -- : [{rid}] "
             + query.lstrip() if rng.random() < 0.3 else head + query.strip()]
    if rng.random() < 0.5:
        view = controller.split("#")[0].lower().replace("controller", "")
        lines.append(f"{head}  Rendered {view}"
                     f"/{controller.split('#')[1]}.html.erb within layouts/application "
                     f"(Duration: {rng.randint(1, 99)}.{rng.randint(0, 9)}ms | Allocations: "
                     f"{rng.randint(100, 99999)})")
    lines.append(f"{head}Completed {rng.choice(('200 OK', '200 OK', '302 Found', '404 Not Found'))}"
                 f" in {total}ms (Views: {rng.randint(0, total)}.{rng.randint(0, 9)}ms | "
                 f"ActiveRecord: {rng.randint(0, total)}.{rng.randint(0, 9)}ms | Allocations: "
                 f"{rng.randint(100, 99999)})")
    return "\n".join(lines)


def _django_line(rng: random.Random, planted: list[str], draw: float) -> str:
    when = _moment(rng)
    target = f"/api/v1/pedidos/{_order(rng)}/" if rng.random() < 0.5 else _path(rng)
    status = rng.choice(_STATUS)
    if draw < PLANT:
        kind = rng.random()
        if kind < 0.75:
            doc, value = _document(rng)
            target = f"/api/v1/clientes/?{doc}={value}"
        else:
            value = _email(rng)
            target = f"/api/v1/contas/recuperar/?email={value}"
        planted.append(value)
    elif draw < PLANT + NEAR:
        doc, value = _near_miss(rng)
        target = f"/api/v1/validacao/?{doc}={value}"
    if status == 404 and rng.random() < 0.5 and draw >= PLANT + NEAR:
        return (f"WARNING {when:%Y-%m-%d %H:%M:%S},{when.microsecond // 1000:03d} log "
                f"{rng.randint(1000, 65535)} {rng.randint(10**14, 10**15 - 1)} Not Found: "
                f"{target.split('?')[0]}")
    return (f"[{when:%d/%b/%Y %H:%M:%S}] \"{_method(rng)} {target} HTTP/1.1\" {status} "
            f"{rng.randint(0, 99999)}")


def _web_app_line(rng: random.Random, planted: list[str]) -> str:
    draw = rng.random()
    if rng.random() < 0.35:
        return _rails_request(rng, planted, draw / 1.6)  # ~6 lines each: fewer planted
    return _django_line(rng, planted, draw)


# 11. Application JSON debug lines --------------------------------------------------------

_DEBUG_MESSAGES: Final = ("cache hit", "cache miss", "lock acquired", "lock released",
                          "token refreshed", "session touched", "rate limit checked",
                          "feature flag evaluated", "idempotency key stored")
_DEBUG_USERS: Final = ("anonymous", "system", "svc-checkout", "svc-estoque")


def _debug_line(rng: random.Random, planted: list[str]) -> str:
    draw = rng.random()
    record: dict[str, object] = {
        "ts": _moment(rng).astimezone(_UTC).isoformat(timespec="milliseconds")
        .replace("+00:00", "Z"),
        "level": "debug", "logger": rng.choice(("cache", "auth.session", "checkout", "ratelimit")),
        "msg": rng.choice(_DEBUG_MESSAGES),
        "key": rng.choice((f"pedido:{_order(rng)}", f"carrinho:{_uuid(rng)}",
                           f"estoque:sku:{rng.randint(1, 99999)}", f"ratelimit:{_hex(rng, 12)}")),
        "user": rng.choice(_DEBUG_USERS) if rng.random() < 0.6 else f"u_{_hex(rng, 10)}",
        "token": f"idem_{_hex(rng, 24)}",
        "session": _hex(rng, 32),
        "ttl_s": rng.choice((60, 300, 900, 3600)),
        "latency_ms": round(rng.random() * 40, 3),
    }
    if draw < PLANT:
        kind = rng.random()
        if kind < 0.2:
            value = _login(rng)
            record["user"] = value
        elif kind < 0.7:
            doc, value = _document(rng)
            record["key"] = f"cliente:{doc}:{value}"
        elif kind < 0.85:
            value = _email(rng)
            record["email"] = value
        else:
            value = _phone(rng)
            record["telefone"] = value
        planted.append(value)
    elif draw < PLANT + NEAR:
        doc, value = _near_miss(rng)
        record["key"] = f"validacao:{doc}:{value}"
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


# Registry --------------------------------------------------------------------------------

FAMILIES: Final[dict[str, Family]] = {family.name: family for family in (
    Family("apache-combined", "Apache httpd/nginx combined access log format "
           "(mod_log_config LogFormat \"combined\", nginx log_format combined)", ".log",
           _apache_line),
    Family("nginx-json", "nginx JSON access log (log_format escape=json, ngx_http_log_module "
           "variables)", ".jsonl", _nginx_json_line),
    Family("syslog", "syslog: RFC 3164 and RFC 5424 messages, journalctl -o short-iso lines "
           "(sshd, sudo, cron, postfix, kernel, systemd)", ".log", _syslog_line),
    Family("java-spring", "Spring Boot console log pattern with MDC (logback %X) and Java "
           "stack traces", ".log", _java_line),
    Family("kubernetes-json", "Kubernetes container logs in Docker's json-file driver format "
           "(log/stream/time) wrapping Go, Python and Node app lines", ".jsonl", _k8s_line),
    Family("postgresql", "PostgreSQL server log, log_line_prefix '%m [%p] %q%u@%d ' "
           "(log_statement, log_min_duration_statement, errors with DETAIL)", ".log", _pg_line),
    Family("sap", "SAP ABAP system log (SM21), dev_w* work process traces, STAD-like "
           "statistics records, customer master changes (KNA1 STCD1/STCD2)", ".log", _sap_line),
    Family("cloudtrail", "AWS CloudTrail event records (CloudTrail record contents), one "
           "JSON event a line", ".jsonl", _cloudtrail_line),
    Family("windows-event", "Windows event log records as event XML (event schema, "
           "Security 4624/4625/4688/4740, System 7036), one event a line", ".log",
           _windows_line),
    Family("django-rails", "Rails request logs (Logger format, log_tags request_id) and "
           "Django runserver/django.request lines", ".log", _web_app_line),
    Family("json-debug", "application JSON debug lines with key/user/token/session fields",
           ".jsonl", _debug_line),
    Family("section6", "performance-baseline.md §6 corpus (benchmarks.throughput.corpus)",
           ".log", throughput._log_line),
    Family("digits", "digit-heavy pt-BR application logs (benchmarks.throughput.digit_corpus)",
           ".log", throughput._digit_line),
)}


def generate(name: str, megabytes: float, seed: int = 7) -> tuple[str, list[str]]:
    """About ``megabytes`` MB (UTF-8) of family ``name``, newline-terminated, and the
    values planted in it (exactly as written), the same for the same seed."""
    family = FAMILIES[name]
    return throughput._generated(megabytes, seed, family.line, throughput._utf8_size)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("families", nargs="*", help="default: every family")
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, help="write <family><extension> files here")
    args = parser.parse_args(argv)
    for name in args.families or FAMILIES:
        text, planted = generate(name, args.mb, args.seed)
        lines = text.count("\n")
        print(f"{name:16} {len(text.encode()) / 1e6:6.2f} MB {lines:8d} lines "
              f"{len(planted):6d} planted  {FAMILIES[name].description}")
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{name}{FAMILIES[name].extension}").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
