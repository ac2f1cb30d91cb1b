"""The prefilter changes nothing: prefiltered analysis equals Presidio on the whole text.

Two proofs, both on the real recognizers and engine: a hypothesis property over texts
built from identifier forms, look-alikes, keywords and noise, and seeded corpora (the
throughput benchmark's log mix and the accuracy benchmark's documents).  Every
backend installed is checked against the unfiltered path.
"""

from __future__ import annotations

import dataclasses
import json
import random
import string

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from benchmarks import synthetic as syn
from benchmarks import zoo
from benchmarks.accuracy import Generator
from benchmarks.throughput import corpus
from redactor.config import Settings
from redactor.engine import Redactor
from tests import needs
from tests.strategies import cnpjs, cpfs

# Each fast backend's tests skip without it, and fail under tests/run.sh (tests/needs.py).
BACKENDS = needs.backend_params()

KNOWN = ("joao.pereira", "maria souza", "Zé Carlos")


def _settings(**changes: object) -> Settings:
    return dataclasses.replace(Settings(), known_users=KNOWN, **changes)


@pytest.fixture(scope="module")
def unfiltered() -> Redactor:
    return Redactor(_settings(), prefilter=False)


@pytest.fixture(scope="module", params=BACKENDS)
def prefiltered(request: pytest.FixtureRequest) -> Redactor:
    engine = Redactor(_settings(), prefilter=request.param)
    engine.prefilter_min_chars = 0
    assert engine.prefilter_backend == request.param
    return engine


def _same(prefiltered: Redactor, unfiltered: Redactor, text: str) -> None:
    from recognizers._text import normalize_for_matching
    from recognizers.prefilter import outside_trigger_alphabet

    # The comparison only means something when the prefiltered path is taken.
    assert not outside_trigger_alphabet(normalize_for_matching(text))
    expected = unfiltered._spans(text, None)
    got = prefiltered._spans(text, None)
    assert got == expected, _diff(text, got, expected)


def _diff(text: str, got: list, expected: list) -> str:  # type: ignore[type-arg]
    missing = [(s.entity, s.start, s.end, text[s.start:s.end]) for s in expected if s not in got]
    extra = [(s.entity, s.start, s.end, text[s.start:s.end]) for s in got if s not in expected]
    return f"missing {missing[:5]} extra {extra[:5]}"


# --------------------------------------------------------------------- fragments

def _luhn_complete(prefix: str) -> str:
    digits = [int(c) for c in prefix + "0"]
    total = 0
    for index, value in enumerate(reversed(digits)):
        if index % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return prefix + str((10 - total % 10) % 10)


FIXED = [
    # phones
    "(11) 98765-4321", "+55 11 98765-4321", "11 3456-7890", "0800 123 4567", "4004-1234",
    "11987654321", "(21)2345-6789", "ramal 123", "ext. 45", "+1 650 253 0000", "98765 4321",
    "tel.: 11 91234 5678", "0xx11 98765-4321", "[11] 98765.4321", "0 11987654321",
    "0 11 98765 4321", "90 15 11 98765 4321", "4004 1234", "0800-123-4567", "11 98765 4321 x12",
    "A(01120000025", "[011987654321",
    # addresses and birth dates
    "Rua Augusta, 1500, apto 32", "R. das Flores, 10 - casa 2", "Av Brasil 500",
    "Rodovia Anhanguera, km 23", "PRAÇA DA SÉ, S/N", "rua estava alagada", "nascimento",
    "12/03/1980", "1980-03-12", "12 de março de 1980", "DN: 12/03/1980", "D.N. 1980-03-12",
    "March 12, 1980", "dob", "nasc.",
    # e-mail, IP, IBAN
    "ana.silva@example.com.br", "x@y", "a@b.co", "192.168.0.1", "10.0.0.256", "::1",
    "fe80::1%eth0", "2001:db8::ff00:42:8329", "1.2.3.4/24", "::ffff:10.1.2.3",
    "BR15 0000 0000 0000 1093 2840 814 P2", "GB82 WEST 1234 5698 7654 32", "DE89370400440532013000",
    # cards
    "4111 1111 1111 1111", "4111111111111111", "5500-0000-0000-0004", "378282246310005",
    # user names in their shapes
    "user=jsilva", "user=bob", "usr: ze", "login=al.b", "USER=BATCH", "USER=BATCH MSG",
    "usuário: Maria da Silva", "/home/jsilva/",
    "jsilva@srv01:~$", "sudo -u jsilva", "Failed password for invalid user bob from",
    "uid=1000(jsilva)", "<user>jsilva</user>", "Logon failed for user JSILVA",
    "--user=ana", "psql --username iara.m -d x", "ps -U root",
    "Accepted keyboard-interactive/pam for jsilva from", "C:\\\\Users\\\\ana\\\\x",
    "/export/home/ana/", "<Login>ana</Login>", "euid=0(root) uid=1001(bia)", "sudo[123]: bia : ",
    "session opened for user carla", "por usuário JOAO", "Failed publickey for bia from",
    "login: \"carla.m\"", "C:\\Users\\fabio\\", "by user heitor",
    "sudo: jsilva : TTY=pts/0 ;", "USER=WF-BATCH.x-", "owner: Batch Job", "changed_by=ddic",
    "joao.pereira", "JOAO.PEREIRA", "maria souza", "ze carlos", "Zé Carlos", "maria      souza",
    "Maria\tSouza",
    # keywords
    "telefone", "celular", "cpf", "CNPJ", "c.n.p.j.", "cartão", "contato", "empresa", "Telefones",
    "cnpj/mf", "whatsapp", "stcd1", "iban", "e-mail",
    # the other Brazilian identifiers, with and without their keywords
    "CNH 02926434554", "02926434554", "PIS 120.38619.49-4", "NIS 12016784018",
    "título de eleitor 1000 0000 0124", "356659360141", "cartão SUS 898 0000 0004 3208",
    "737944386427509", "RENAVAM 0199352001-2", "RG 12.345.678-2 SSP/SP", "MG-12.345.678",
    "CEP 01310-100", "01310100", "+55 (11) 98765-4321", "(21) 2345-6789", "0055 11 98765 4321",
    "chave pix 123e4567-e12b-12d1-a456-426655440000", "placa ABC1D23", "ABC-1234", "BRL1000",
    "Ag. 1234-5 C/C 12345-6", "conta corrente 12345-6", "processo 0000001-54.2014.8.26.0564",
    "00000015420148260564", "56835394633", "CPF do pai, PIS 56835394633",
    # forms of other projects' test suites (issue 28)
    "12abc34501de35", "CNPJ 12. ABC.345 /01DE-35", "AA345678/000A-29", "1Z 000 000 0000 39",
    "cnpj 12 ABC 345 01DE 35", "abcdefghijkl80", "placa abc1d23", "veículo abc-1234",
    "Placa: abc 1234", "ABC-1D23", "carro com 1234", "0002080/25.2012.5.15.0049",
    "0002080-25.2012.515.0049", "processo 0000001 83 2017 8 26 0100", "RENAVAM: 8166853556-2",
    "renavam 0063988.4962", "título eleitoral 2776 2712 28 52",
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802"
    "BR5913Fulano de Tal6008BRASILIA62070503***63041D3D",
    # people's names and their look-alikes
    "João Carlos da Silva", "MARIA APARECIDA DOS SANTOS", "Dra. Helena", "o atendente Marcos",
    "Cliente: Ana Souza", "NAME1=JOSE PEREIRA", "De: Ricardo Almeida <r@example.com>",
    "Author: Paulo Nunes <p@example.org>", "SILVA, João", "SOUZA, J.", "Banco do Brasil",
    "São José dos Campos", "Costa, Lima e Rocha", "a Maria confirmou", "Gabriel D'Ávila",
    "Ana-Maria Braga", "assinado por Paulo", "J. R. Silva", "Maria", "Silva", "Sr. Xyzk",
    "FAVORECIDO: JOSE DAS CHAGAS PEREIRA", "Paulo Afonso", "Magazine Luiza", "\"nome\": \"Lia\"",
    "Joao", "MARIA", "Sra.(S): Ana", "paciente da Silva", "Universidade Federal de Minas Gerais",
    "Maria Souza Ltda", "Rio Branco", "Santa Catarina", "Dia das Mães", "Bom dia",
    # secrets, their keys and the structures around them (issue 14)
    "senha=Hunter2!", "password: correct horse", "DB_PASSWORD=x9!kk7", '"token": "abc123XYZ789"',
    "PWD=/home/x", "chave=9f8e7d6c5b4a", "nfe chave=1234", "--password s3cr3t", "<pwd>a1b2c3</pwd>",
    "ghp_" + "a1B2c3D4e5" * 3 + "a1B2c3", "AKIAIOSFODNN7EXAMPLE", "xoxb-123-456-abc",
    "sk_live_" + "a1B2" * 6, "AIza" + "Sy" * 17 + "x", "Authorization: Bearer abcdefghij0123456789",
    "Basic ZGVwbG95OnMzY3IzdA==", "postgres://app:s3cr3t@db", "://a:b@c",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "eyJ", "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEAq0123456789abcdefABCDEF+/==",
    "-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7\n"
    "-----END PRIVATE KEY-----",
    "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlF", "PuTTY-User-Key-File-3: ssh-rsa",
    "kind: Secret", "data:", "\ndata:\n  password: czNjcjN0\n  user: YWRtaW4=\nkind: Secret\n",
    '{"data": {"k": "djE="}, "kind": "Secret"}', "stringData:\n  A: b\n", "---",
    "session=Zk9vYmFyMTIzNDU2Nzg5MGFi", "api_key = 'k3y-v4lu3-123'", "[SECRET:00ff]",
    "A senha é gatinho558!", "the password is hunter2", "a senha do wifi é Casa@2024",
    "a senha é muito fraca", "the password is 12345678 characters long",
    # escaped and encoded forms (issue 29, item 5)
    "GET /api?cpf=529.982.247%2D25&x=1", "cnpj=11.222.333%2F0001-81",
    '{"cnpj":"11.222.333\\/0001-81"}', "11.222.333&#x2F;0001-81", "11.222.333&#47;0001-81",
    "email=maria.souza%40example.com", "to=maria.souza+news@example.com",
    "?email=maria.souza%2Bnews%40example.com", "GET /api?to=maria.souza+news@example.com HTTP",
    "a&#64;example.com", "maria\\u0040example.com", "x%2540example.org",
    "https://wa.me/5511987654321", "nome=Maria+Souza&idade=30", "nome=Maria%20Souza",
    "name=Jo%C3%A3o+da+Silva&age=1", "529.982.247 - 25", "cpf52998224725", "CPF:52998224725",
    "cnpj11222333000181", "529%2E982%2E247-25", "11.222.333%252F0001-81",
    "/clientes/529.982.247-25/pedidos", "%2Fclientes%2F52998224725%2F", "\\n52998224725",
    "%2F2024%2F11%2F05", "%20%20", "%40", "&#64;", "\\u0040", "%2520",
    # noise
    "2024-11-05 10:15:00.000", "20241105 101500", "20240229 000159", "IDOC 1234567890123456",
    "Order 4512345678 created", "v1.2.3", "ação", "usua\u0301rio", "ｃｐｆ",
    # user names where log formats put them (the access log's field, SAP rows, Windows
    # event data, ARNs, LDAP), with the fields that hold none
    "192.0.2.7 - cbarbosa [27/Nov/2024:03:17:21 -0300]", "- - [01/Jan/2024:00:00:00 +0000]",
    "x admin [27/Nov/2024:03:17:21 -0300]", "h - _ana_ [27/Nov/2024:03:17:21 -0300]",
    "h - joao.silva. [27/Nov/2024:03:17:21 -0300]", " [27/Nov/2024:03:17:21 -0300]",
    "20:11:15 DIA 034 100 ACARVALHO    XD02", "07.11.2024 03:19:35 DIA 030 DDIC         BP",
    "10:01:18 BTC 012  PLIMA  SM37", "12:00 UPD 015 100 SAPSYS  MM03", "11:22:33 SPO 001 X1 ",
    '<Data Name="TargetUserName">jcarvalho</Data>', "<Data Name='SubjectUserName'>SYSTEM</Data>",
    '<Data Name="TargetUserName"> DWM-1 </Data>', 'Name="AccountName">',
    "arn:aws:iam::123456789012:user/dev/rafael.lima", 'dn="uid=gipson,ou=people,dc=x"',
    "remote_user=jsilva", '"targetUserName": "bcosta"', "DB_USER=rlima", "XXXXXX@XXXXXXXX",
    "bounce-1-user=example.com@example.com", "User: arn:aws:sts::1:assumed-role/x",
    "uid=ítalo,ou=people", "uid=_jsilva,ou=x", "Login: user=<maria>, method",
    "arn:aws:iam::123456789012:user/" + "division-00/" * 3 + "jsilva",
    "arn:aws:iam::123456789012:user/engineering/*", "user=jsilva@corp.local",
    # numbers whose spaces leave some groups joined (log fields): a keyword lifts them
    "107 302 15997", "45471 200 486047", "CPF: 529982247 25", "cnpj 11222333 000181",
    "529 982 247 25", "11 222 333 0001 81",
    # a user agent's words lift no phone (ContextWords.outside_products)
    "Version/17.6 Mobile/15E148 Safari/604.1", "Chrome/130.0.0.0 Mobile Safari/537.36",
    "(Android 14; Mobile; rv:132.0)", "WhatsApp/2.23.20.0", "Mobile: 11987654321",
    "4532345678 Mobile/15E148", "celular/whatsapp 11987654321",
    # escapes read as their letters, JSON inside a string, passwords on command lines
    # and in URLs without a user (issue 33, eleventh stop)
    '{"user": "jo\\u00e3o.silva"}', "Usu\\u00e1rio Jo\\u00e3o Pereira", "Jo\\\\u00e3o",
    "\\u00a0", "\\ud83d", "\\" * 40 + "u00e3", '{\\"user\\":\\"jsilva\\"}',
    '\\"nome\\": \\"Fernanda Lima\\"', "htpasswd -nb admin S3nh@Forte1",
    "htpasswd -b -c /etc/.htpasswd joao 'Cafe 9x'", "htpasswd -nb prints results",
    "redis://:S3nh@Forte1@cache:6379/0", "unix://:S3nh4Forte@/run/r.sock", "ec2-user",
    "npm_config_cache", "xoxB-1234-5678-abcdefgh",
    # release numbers shaped like addresses, Latin-1 bytes kept as escapes, names with
    # Marian titles, capitalised and elided particles (issue 33, twelfth stop)
    "base-passwd (2.0.3.5) unstable;", "XFree86 4.3.99.16", "from 3.85.12.44 port",
    "3.23.91.1\n  - item", "Jo\udce3o Pereira", "usu\udce1rio=jsilva", "\udc96",
    "Maria das Graças Souza", "Fabio M. Di Nitto", "Marco d'Itri", "João d’Ávila",
    "Anna O'Brien", "Hans Van Der Berg", "o usuário mferreira", "user joao.silva2 x",
    "usuário jsilva.adm", "user xattrs", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like ",
    "Mac OS X)", "Mozilla/5.0 (Maria Silva; x)", " (Mac OS) ", "Safari/604.1 (", ")",
    "PR/466 (Jason Hood)", "; ", "{54849625-5478-4994-A5BA-3E3B0328C30D}", "cartão ",
    "4111 1111-54849625-5478-4994-A5BA-3E3B0328C30D", "5484 9625-5478-4994-a5ba",
    "app@vendas LOG:", "@exemplo.com", "@srv01", "ana@", ".com.br",
    "IP 198.51.100.7.51234 > 203.0.113.9.22: Flags", "IP 10.0.0.5.443 > ", "3.85.12.44.2:",
    "outside/198.51.100.7(51234) -> inside/10.0.0.5(22)", "Firefox/2.0.0.14(1)",
]
#: Characters the triggers do not spell: a text holding one takes the full path.
EXOTIC = ["𝐚", "٣٤٥", "Ⓐ", "a\u0301\u0301\u0301"]
_FIXED = st.sampled_from(FIXED)


#: Words of runs of capitalised words (names, places, companies, titles, particles).
RUN_WORDS = ["Maria", "Silva", "Costa", "da", "DOS", "Banco", "Rua", "José", "São", "Paulo",
             "Xyzk", "Dr.", "J.", "Cliente", "Santa", "Lima", "E", "e", "JOAO", "PEREIRA", "Ltda",
             "Ana-Maria", "Março", "Federal", "Rio", "Neto", "Hoje", "de", "XYKA", "WUBO",
             "Mesa", "Conselheiro", "Mairinck", "Pena", "PACIENTE", "DA", "ABCD,", "por",
             "assinado", "Olá,", "MSG="]


@st.composite
def _fragment(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 8))
    if kind == 8:
        words = draw(st.lists(st.sampled_from(RUN_WORDS), min_size=1, max_size=16))
        gap = draw(st.sampled_from([" ", "  ", "\t", " , "]))
        return gap.join(words)
    if kind == 0:
        cpf = draw(cpfs())
        forms = {**syn.cpf_forms(cpf), **syn.cpf_encoded_forms(cpf)}
        return forms[draw(st.sampled_from(sorted(forms)))]
    if kind == 1:
        cnpj = draw(cnpjs())
        forms = {**syn.cnpj_forms(cnpj), **syn.cnpj_encoded_forms(cnpj)}
        return forms[draw(st.sampled_from(sorted(forms)))]
    if kind == 2:
        return draw(st.text(string.digits, min_size=1, max_size=18))
    if kind == 3:
        return _luhn_complete(draw(st.text(string.digits, min_size=12, max_size=18)))
    if kind == 4:
        return draw(st.text(string.ascii_letters + "áéçãÁÉ_", min_size=1, max_size=12))
    return draw(_FIXED)


#: Inert text: long stretches of it leave each fragment's candidate region on its own,
#: so that a trigger missing for one fragment cannot hide behind a neighbour's region.
FILLER = "lorem ipsum dolor sit amet "

_SEPARATORS = st.one_of(
    st.sampled_from([" ", " ", "\n", "\t", "=", ": ", ";", ",", "-", ".", "/", "(", ")", "\"",
                     "'", "", "  ", " | ", "\u00a0", "\u2013"]),
    st.integers(8, 40).map(lambda n: f" {FILLER * n}\n"),
)


@st.composite
def _texts(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.tuples(_fragment(), _SEPARATORS), min_size=1, max_size=60))
    return "".join(f + s for f, s in parts)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(text=_texts())
def test_prefiltered_equals_unfiltered_on_generated_text(
        prefiltered: Redactor, unfiltered: Redactor, text: str) -> None:
    _same(prefiltered, unfiltered, text)


@pytest.mark.parametrize("fragment", FIXED)
def test_each_form_alone_in_inert_text(
        prefiltered: Redactor, unfiltered: Redactor, fragment: str) -> None:
    pad = FILLER * 20
    for text in (f"{pad}{fragment}{pad}", f"{pad}cpf {fragment} telefone{pad}", fragment):
        _same(prefiltered, unfiltered, text)


def test_every_form_of_the_identifiers_alone_in_inert_text(
        prefiltered: Redactor, unfiltered: Redactor) -> None:
    rng = random.Random(9)
    pad = FILLER * 12
    forms: list[str] = []
    for _ in range(20):
        cpf = syn.random_cpf(rng)
        cnpj = syn.random_cnpj(rng, alphanumeric=rng.random() < 0.5)
        forms.extend(syn.cpf_forms(cpf).values())
        forms.extend(syn.cnpj_forms(cnpj).values())
        # Escaped separators, a glued keyword, an escape before the number (issue 29).
        forms.extend(syn.cpf_encoded_forms(cpf).values())
        forms.extend(syn.cnpj_encoded_forms(cnpj).values())
        forms.append(syn.timestamp14(rng))
        forms.append(syn.mobile_not_cpf(rng))
    # CNPJs that almost read as YYYYMMDDhhmmss: impossible dates, leap days, the
    # order 0001, years at the edges of the timestamp rule.
    for year in ("1899", "1999", "2024", "2100", "2101"):
        for month in ("00", "02", "04", "12", "13"):
            for day in ("00", "28", "29", "30", "31", "32"):
                for time in ("0001", "1015", "2359", "2400", "1060"):
                    base = f"{year}{month}{day}{time}"
                    digits = base + syn.cnpj_check_digits(base)
                    forms.extend([digits, f"{digits[:8]} {digits[8:]}"])
    found = 0
    for form in forms:
        text = f"{pad}{form} {pad}"
        found += bool(unfiltered._spans(text, None))
        _same(prefiltered, unfiltered, text)
    assert found > len(forms) // 2


# --------------------------------------------------------------------- corpora

def test_prefiltered_equals_unfiltered_on_the_log_corpus(
        prefiltered: Redactor, unfiltered: Redactor) -> None:
    text, planted = corpus(1.0, seed=11)
    found = prefiltered._spans(text, None)
    assert len(found) >= len(planted)  # planted CPF/CNPJ plus the phones next to keywords
    _same(prefiltered, unfiltered, text)


def test_prefiltered_equals_unfiltered_on_the_accuracy_documents(
        prefiltered: Redactor, unfiltered: Redactor) -> None:
    docs = Generator(5).documents(600)
    text = "\n".join(d.text for d in docs)
    assert sum(len(d.spans) for d in docs) > 500
    _same(prefiltered, unfiltered, text)


def test_a_shuffled_mix_of_everything_far_apart_and_close_together(
        prefiltered: Redactor, unfiltered: Redactor) -> None:
    rng = random.Random(3)
    fixed = FIXED
    pieces = []
    for _ in range(3000):
        pieces.append(rng.choice(fixed))
        pieces.append(rng.choice([" ", "\n", " " * rng.randint(1, 400), "=", ";"]))
    _same(prefiltered, unfiltered, "".join(pieces))


def test_the_prefilter_is_used_and_skips_text_without_candidates(prefiltered: Redactor) -> None:
    assert not prefiltered.may_contain("nothing personal here, just words and 12 numbers\n" * 50)
    assert prefiltered.may_contain("cliente 529.982.247-25")


@pytest.mark.parametrize("exotic", EXOTIC)
def test_text_outside_the_trigger_alphabet_takes_the_full_path(
        prefiltered: Redactor, unfiltered: Redactor, exotic: str) -> None:
    # Mathematical letters, circled letters, non-ASCII digits fold onto what the
    # triggers look for without being spelled by them: such text is never filtered.
    text = f"{exotic} telefone 11987654321 cpf 52998224725 " + "x " * 3000
    assert prefiltered.may_contain(f"{exotic} nothing else")
    assert prefiltered._spans(text, None) == unfiltered._spans(text, None)
    assert any(s.entity in ("PHONE_NUMBER", "BR_PHONE") for s in unfiltered._spans(text, None))


@pytest.mark.parametrize("threshold", [0.05, 0.3, 0.5, 0.8])
def test_other_thresholds_keep_the_equivalence(threshold: float) -> None:
    full = Redactor(_settings(score_threshold=threshold), prefilter=False)
    fast = Redactor(_settings(score_threshold=threshold), prefilter="re")
    fast.prefilter_min_chars = 0
    rng = random.Random(int(threshold * 100))
    fixed = FIXED
    text = " ".join(rng.choice(fixed) for _ in range(1500))
    _same(fast, full, text)


#: JSON keys and column names: keywords of some entity (which then read the whole
#: text) and plain ones (which lift nothing and leave every entity prefiltered).
LABELS = ["cpf", "stdout", "telefone", "user", "content", "cnpj", "conta corrente", "email",
          "output", "renavam", "login", "cartão", "ip", "tool_response", "pis"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(text=_texts(), labels=st.lists(st.sampled_from(LABELS), min_size=1, max_size=2))
# Labels without a phone keyword: the phone recognizer reads the text as without labels
# on both paths (a bare valid number before a shaped one in the same run of digits).
@example(text="0 11987654321 0xx11 98765-4321 ", labels=["cpf"])
def test_prefiltered_equals_unfiltered_with_labels(
        prefiltered: Redactor, unfiltered: Redactor, text: str, labels: list[str]) -> None:
    got = prefiltered._spans(text, labels)
    expected = unfiltered._spans(text, labels)
    assert got == expected, _diff(text, got, expected)


def test_labels_lift_only_the_entities_whose_keywords_they_hold(prefiltered: Redactor) -> None:
    assert prefiltered._lifted_by(("stdout",)) == ()
    assert "BR_CPF" in prefiltered._lifted_by(("cpf",))
    assert "BR_CNPJ" not in prefiltered._lifted_by(("cpf",))
    assert [s.entity for s in prefiltered._spans("52998224725", ["cpf"])] == ["BR_CPF"]
    assert prefiltered._spans("52998224725", ["cpf"])[0].score == 1.0  # lifted by the label


def test_a_long_list_of_known_users_builds_on_every_backend() -> None:
    # Thousands of listed names are not compiled into a trigger (hyperscan refuses
    # or takes minutes); the recognizer finds their hits itself.
    rng = random.Random(4)
    names = (*(f"{''.join(rng.choices(string.ascii_lowercase, k=8))}.{index}"
               for index in range(20_000)), "Zé Carlos")
    full = Redactor(dataclasses.replace(Settings(), known_users=names), prefilter=False)
    text = f"login {names[123]} e {names[19_999]} ok ZE   carlos " + FILLER * 40
    expected = full._spans(text, None)
    assert [s.entity for s in expected] == ["USERNAME"] * 3
    for backend in needs.backends():
        fast = Redactor(dataclasses.replace(Settings(), known_users=names), prefilter=backend)
        assert fast._spans(text, None) == expected
        assert not fast.may_contain(FILLER * 10)


def test_the_listed_names_finder_equals_the_compiled_trigger(
        monkeypatch: pytest.MonkeyPatch, unfiltered: Redactor) -> None:
    import recognizers.username

    monkeypatch.setattr(recognizers.username, "MAX_COMPILED_NAMES", 0)
    fast = Redactor(_settings(), prefilter="re")
    fast.prefilter_min_chars = 0
    rng = random.Random(21)
    pad = FILLER * 8
    for _ in range(300):
        text = pad.join(rng.choice(FIXED) for _ in range(rng.randint(1, 6)))
        _same(fast, unfiltered, text)


# Found by a hostile review: each once left the prefiltered path finding less.
@pytest.mark.parametrize(("known", "text"), [
    (("joao", "maria souza"), "log: maria\x1fsouza saiu"),        # \s of hyperscan
    (("Κώστας", "Strauß", "maria souza"), "log: ΚΏΣΤΑΣ saiu"),    # letters beyond Latin
    (("Андрей", "Сергей"), "log: Андрей saiu"),
    ((*(f"filler{i}x" for i in range(20)), "joao", "joao silva"),  # the finder, overlaps
     f"{FILLER * 20}log: joao{' ' * 120}silva saiu{FILLER * 20}"),
    ((), "c\u20d7artão 4111111111111111"),                         # marks beyond U+036F
    ((), "ŀnascimento: 12/03/1980"),                               # ŀ folds to "l·"
    ((), "RENA\u20d7VAM 01993520012"),
])
def test_review_cases_prefiltered_equal_unfiltered(known: tuple[str, ...], text: str) -> None:
    _same_on_every_backend(known, text)


# Found by the hostile review of issue 13's changes.
@pytest.mark.parametrize("text", [
    "11987654321 " + "x" * 67 + " telex",             # "tel" of a word the window cuts
    "hotel " + "x" * 115 + " 11987654321",            # ... on the left
    "xcartao de credito " + "y" * 101 + " 4111111111111111",  # a phrase's cut keyword
    "1-" * 20 + "1" * 20 + "11 98765 4321",           # a match that starts after a digit
    "11987654321 te\uff9el",                          # a character that vanishes in fold()
])
def test_issue_13_review_cases_prefiltered_equal_unfiltered(text: str) -> None:
    _same_on_every_backend((), text, found=False)


# Found by the second review: fold() reads a superscript digit as the digit, so "stcd¹"
# is the keyword "stcd1", which lifts a CNPJ that reads as a timestamp.
# python-phonenumbers reads any run of blanks between a number and "ext.": a number's
# parse depended on an extension label far beyond the prefilter's window (found by the
# shuffled mix once it held issue 14's fragments).
@pytest.mark.parametrize("text", ["[11] 98765.4321" + " " * 200 + "ext. 45",
                                  "(11) 98765-4321" + " " * 16 + "ramal 12",
                                  "11 98765 4321," + "\t" * 40 + "x 7"])
def test_an_extension_label_far_after_a_number_is_not_read(text: str) -> None:
    _same_on_every_backend((), text, found=False)


@pytest.mark.parametrize("text", ["stcd\u00b9 20241028080725 fim",
                                  "STCD\u00b9: 20241028080725"])
def test_a_keyword_digit_written_as_a_superscript_still_triggers(text: str) -> None:
    _same_on_every_backend((), text)


# ... and "stcd½" folds to "stcd1⁄2", the keyword and a "2": such text is analysed whole.
@pytest.mark.parametrize("text", ["stcd\u00bd 20241028080725 fim",
                                  "STCD\u00bc: 20241028080725"])
def test_a_keyword_digit_inside_a_vulgar_fraction_skips_the_prefilter(text: str) -> None:
    from recognizers._text import normalize_for_matching
    from recognizers.prefilter import outside_trigger_alphabet

    assert outside_trigger_alphabet(normalize_for_matching(text))
    _same_on_every_backend((), text)


def _same_on_every_backend(known: tuple[str, ...], text: str, *, found: bool = True) -> None:
    settings = dataclasses.replace(Settings(), known_users=known)
    expected = Redactor(settings, prefilter=False)._spans(text, None)
    assert bool(expected) or not found
    for backend in needs.backends():
        engine = Redactor(settings, prefilter=backend)
        engine.prefilter_min_chars = 0
        assert engine._spans(text, None) == expected


def test_cnpj_keywords_open_windows_only_near_a_timestamp_shaped_run(
        prefiltered: Redactor, unfiltered: Redactor) -> None:
    """A CNPJ keyword's hit is accepted only when a run that may read as a timestamp
    lies within its reach: at every distance around the edge of the context words,
    on both sides, the keyword still lifts exactly what it lifts unfiltered."""
    base = "202401151030"
    stamp = base + syn.cnpj_check_digits(base)  # a valid CNPJ that reads as a timestamp
    words = ["ab", "xyzzy", "lorem-ipsum", "q" * 23]
    lifted = 0
    for keyword in ("cnpj", "emitente", "c.n.p.j.", "razao social"):
        for value in (stamp, f"{stamp[:8]} {stamp[8:]}"):
            for count in range(7):
                for word in words:
                    gap = " ".join([word] * count)
                    for text in (f"{keyword} {gap} {value} fim", f"x {value} {gap} {keyword}"):
                        expected = unfiltered._spans(text, None)
                        lifted += bool(expected)
                        _same(prefiltered, unfiltered, text)
    # Near ones are lifted, far ones are not: both sides of the edge were seen.
    assert 0 < lifted < 4 * 2 * 7 * len(words) * 2
    # A keyword with no such run near it opens no window at all.
    assert "BR_CNPJ" not in prefiltered._scanner.regions(
        "emitente " + "nota fiscal 12345 " * 10)  # type: ignore[union-attr]


# -------------------------------------------------- hyperscan: Latin-1 and UTF-8 scans

def _both_scans() -> tuple[object, object]:
    from redactor.candidates import Scanner

    engine = Redactor(_settings(), prefilter="hyperscan")
    found = engine._analyzer.registry.get_recognizers("pt", entities=engine._entities)
    declared = [r.prefilter(engine.settings.score_threshold) for r in found]
    return (Scanner(declared, backend="hyperscan"),
            Scanner(declared, backend="hyperscan", narrow=False))


def _hits(scanner: object, text: str) -> set[tuple[object, ...]]:
    """Hits as the pipeline sees them: the Latin-1 scan joins bounded triggers that
    differ in their pattern alone into one expression, reported as its first member
    (candidates._united), so a trigger is told by what it does, not by its pattern."""
    return {(i, t.name, t.before, t.after, t.accept, t.max_length, t.keyword, s, e)
            for i, t, s, e in scanner._find(text)}  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def both_scans() -> tuple[object, object]:
    needs.require_module("hyperscan")
    return _both_scans()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.data_too_large])
@given(text=_texts())
def test_latin1_scan_hits_what_the_utf8_scan_hits(
        both_scans: tuple[object, object], text: str) -> None:
    """Every trigger hit, trigger for trigger, is the same whether a text of Latin-1
    characters is scanned as Latin-1 bytes (the fast way) or as UTF-8."""
    narrow, wide = both_scans
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        text = "".join(c for c in text if ord(c) < 0x100)
    assert _hits(narrow, text) == _hits(wide, text)


def test_latin1_scan_hits_what_the_utf8_scan_hits_on_the_corpora(
        both_scans: tuple[object, object]) -> None:
    from benchmarks.throughput import digit_corpus

    narrow, wide = both_scans
    docs = "\n".join(d.text for d in Generator(7).documents(400))
    for text in (corpus(0.5, seed=3)[0], digit_corpus(0.5, seed=3)[0],
                 docs.encode("latin-1", "replace").decode("latin-1"),
                 "".join(f for f in FIXED if max(f) < "\u0100")):
        text.encode("latin-1")  # the fast way is taken
        hits = _hits(narrow, text)
        assert len(hits) > 100
        assert hits == _hits(wide, text)


def test_phrase_keywords_of_one_letter_words_lift_as_unfiltered(
        prefiltered: Redactor, unfiltered: Redactor) -> None:
    """``r.g.``, ``c.n.p.j.`` are found by their last word standing alone: spaced,
    dotted, glued to punctuation, at both sides of the value and at every distance."""
    rng = random.Random(5)
    lifted = 0
    for _ in range(6):
        rg = syn.random_rg_sp(rng)
        for keyword in ("R.G.", "r. g.", "RG", "r.g:", "R . G", "(r.g.)"):
            for gap in ("", "xx ", "xx yy ", "xx yy zz ", "xx yy zz ww ", "q" * 30 + " "):
                for text in (f"{keyword} {gap}{rg} fim", f"nota {rg} {gap}{keyword} fim"):
                    lifted += bool(unfiltered._spans(text, None))
                    _same(prefiltered, unfiltered, text)
    assert lifted > 0


def test_cpf_and_cnpj_hits_open_windows_only_when_their_check_digits_pass(
        prefiltered: Redactor, unfiltered: Redactor) -> None:
    """Each numeric form between every kind of boundary, valid and one digit off: the
    prefiltered path finds what the unfiltered one finds, and a form whose check digits
    fail opens no window (its recognizer would drop it)."""
    rng = random.Random(13)
    values = []
    for _ in range(4):
        values += syn.cpf_forms(syn.random_cpf(rng)).values()
        values += syn.cpf_forms(syn.invalid_cpf(rng)).values()
        values += syn.cnpj_forms(syn.random_cnpj(rng, alphanumeric=rng.random() < 0.5)).values()
        values += syn.cnpj_forms(syn.invalid_cnpj(rng)).values()
    found = 0
    for value in values:
        for left, right in (("", ""), ("cpf=", ";"), ("cnpj: ", "."), ("(", ")"), ("é ", " ã"),
                            ("\"", "\""), ("x\n", "\ny"), ("/", "-")):
            text = f"registro {left}{value}{right} fim"
            expected = unfiltered._spans(text, None)
            found += bool(expected)
            _same(prefiltered, unfiltered, text)
    assert 0 < found < len(values) * 8
    scanner = prefiltered._scanner
    assert scanner is not None
    for bad in (syn.cpf_forms(syn.invalid_cpf(rng))["masked"],
                syn.cnpj_forms(syn.invalid_cnpj(rng))["masked"]):
        assert not scanner.regions(f"nota {bad} fim"), bad


def test_a_known_users_entry_without_a_word_builds_on_every_backend() -> None:
    """``known_users = ["  "]`` gave the listed-name trigger a pattern that can never match,
    which hyperscan refused to compile: the engine could not be built."""
    _same_on_every_backend(("  ",), "cliente 529.982.247-25 login jsilva " * 3)


_KEYS = st.sampled_from(["senha_db", "senha", "password", "cpf", "cnpj", "nome", "user",
                         "usuario", "telefone", "rg", "email", "token", "api_key", "obs",
                         "msg", "id", "pedido", "evento", "nascimento", "endereco"])


@st.composite
def _documents(draw: st.DrawFn) -> dict[str, object]:
    """A JSON object of keyword and plain keys over generated values, nested at times."""
    def value() -> object:
        return draw(st.one_of(_fragment(), st.sampled_from(["hunter7senha", "ok", "", "x1"]),
                              st.integers(0, 10**12)))

    document: dict[str, object] = {}
    for key in draw(st.lists(_KEYS, min_size=1, max_size=4, unique=True)):
        document[key] = {draw(_KEYS): value()} if draw(st.booleans()) else value()
    return document


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(documents=st.lists(_documents(), min_size=1, max_size=12))
def test_json_lines_fast_paths_equal_redact_json_line_by_line(
        prefiltered: Redactor, unfiltered: Redactor, documents: list[dict[str, object]]) -> None:
    """The batch JSON Lines path and Spark's row batches skip lines the prefilter clears;
    what they give must be what ``redact_json`` gives each line on the whole text."""
    from redactor.batch import FileReport, _redact_lines
    from redactor.spark import redact_documents

    # Files: keys and numbers too (issue 29); Spark's rows: string columns, keys kept.
    in_files, in_rows = [], []
    for document in documents:
        result = unfiltered.redact_json(document, keys_and_numbers=True)
        in_files.append(result.value if result.findings else document)
        result = unfiltered.redact_json(document)
        in_rows.append(result.value if result.findings else document)
    lines = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in documents)
    got = [json.loads(line) for line in
           _redact_lines(prefiltered, lines, FileReport("x")).splitlines()]
    assert got == in_files
    rows = redact_documents(prefiltered, documents)
    assert [r.value if r is not None else d for r, d in zip(rows, documents, strict=True)] \
        == in_rows


@pytest.mark.parametrize("family", list(zoo.FAMILIES))
def test_prefiltered_equals_unfiltered_on_every_family_of_the_zoo(
        family: str, prefiltered: Redactor, unfiltered: Redactor) -> None:
    # Logs nobody here wrote the words of: the prefilter must change nothing on any.
    text, _ = zoo.generate(family, 0.15, seed=13)
    _same(prefiltered, unfiltered, text)
    if zoo.FAMILIES[family].extension == ".jsonl":
        for line in text.splitlines()[:150]:
            value = json.loads(line)
            assert prefiltered.redact_json(value).value == unfiltered.redact_json(value).value


def _jsonl_expected(unfiltered: Redactor, text: str) -> str:
    """What the JSON Lines reader must write: each line through redact_json of the
    engine without prefilter, keys and numbers included, as the batch calls it."""
    from redactor import batch

    out = []
    for line in text.splitlines():
        if not line.strip():
            out.append(line)
            continue
        result = unfiltered.redact_json(batch.loads_keeping_numbers(line),
                                        keys_and_numbers=True)
        out.append(batch.dumps_keeping_numbers(result.value, ensure_ascii=False,
                                               separators=batch._separators_of(line))
                   if result.findings else line)
    return "\n".join(out) + "\n"


def _jsonl_escapes() -> str:
    """Lines whose raw text is not what is analysed: escapes that glue, hide or split."""
    cpf = "529.982.247-25"
    zero = "0" + (base := "12345678") + syn.cpf_check_digits("0" + base)
    lines = [
        {"log": f"cliente cpf {cpf}\n", "stream": "stdout"},
        {"log": "nada a declarar\n", "stream": "stderr", "n": 3},
        {"msg": "sem dados\tnem nada", "cpf_cliente": int(zero)},
        {"msg": "aspas \"internas\" e barra \\ e /", "id": 52998224725},
        {"a\nb": "chave com quebra", "x": [1, 2.5, {"y": "z\n"}]},
        {"msg": "e-mail\nmaria.souza@example.com\n"},
        # Numbers read after their keys, as redact_json reads them.
        {"senha": 84736251, "m": "a\nb"},
        {"session": 9182736450918273, "m": "x\ty"},
        {"telefone": 11987654321, "m": "\n"},
        {"pedido": {"cnpj": 11222333000181}, "m": "\n"},
        {"ag": 1234, "cc": 567890, "m": "a\nb"},  # a bank account only after its keys
    ]
    text = "\n".join(json.dumps(line) for line in lines)
    # A CPF written with \u escapes for its first digits, and one across a \n.
    text += '\n{"msg": "cpf \\u0035\\u0032\\u0039.982.247-25"}'
    text += '\n{"msg": "doc\\n529.982.247-25\\n"}\n'
    return text


@pytest.mark.parametrize("family", [name for name, f in zoo.FAMILIES.items()
                                    if f.extension == ".jsonl"])
def test_the_json_lines_reader_equals_redact_json_without_prefilter(
        family: str, prefiltered: Redactor, unfiltered: Redactor) -> None:
    # The reader writes a line as it came when neither its raw text nor the texts
    # redact_json would analyse hold a hit (and no key lifts an entity).
    from redactor import batch

    text, _ = zoo.generate(family, 0.05, seed=17)
    text = "\n".join(text.splitlines()[:120]) + "\n" + _jsonl_escapes()
    got = batch._redact_lines(prefiltered, text, batch.FileReport("zoo.jsonl"))
    assert got == _jsonl_expected(unfiltered, text)
    assert "529.982.247-25" not in got


def test_prefiltered_equals_unfiltered_on_real_legal_prose(
        prefiltered: Redactor, unfiltered: Redactor) -> None:
    # LeNER-Br's test documents (Brazilian court decisions, vendored with their licence):
    # prose with people's names, titles and citations nobody here wrote.  PERSON reads
    # only the runs its hits touch; this proves the runs left unread held no name.
    from benchmarks import lener

    text = "\n".join(doc.text for doc in lener.documents())
    found = prefiltered._spans(text, None)
    assert sum(1 for span in found if span.entity == "PERSON") > 50
    _same(prefiltered, unfiltered, text)


PERSON_CUES = [
    "-- Voltaire\n", "Texto citado.\n— Machado de Assis\n", "disse Kevin ontem",
    "Kevin Mitnick, disse", "Kevin disse", "Morre Thiemo Seufer aos 30", "o João chegou",
    "Dra. Helena", "Sra.(S): Ana", "Maria:\noi\nJoão: tudo bem?\nMaria: sim\n",
    "[10:22] Ana: oi\n[10:23] Bruno: olá\n", "SILVA, João. Obra.", "De: Paulo Nunes <p@x.org>",
    '{"nome": "Fernanda"}', "?nome=Maria+Souza&x=1",
    "A primeira versão do sistema foi escrita e anunciada por Ian\n    Murdock em 1993",
    "o atendente Marcos", "H. L. Mencken", "Linus Torvalds", "cliente: Lia Souza",
]


@pytest.mark.parametrize("text", PERSON_CUES)
def test_each_person_cue_is_found_as_unfiltered_far_inside_a_log(
        text: str, prefiltered: Redactor, unfiltered: Redactor) -> None:
    # A cue with its name in the middle of a long stretch of capitalised log words that
    # no hit touches: the windows around the hits are large, the runs read are few.
    noise = "INFO | Data Security | System Event Provider | Level Task Opcode\n" * 60
    whole = noise + "\n" + text + "\n\n" + noise
    assert any(s.entity == "PERSON" for s in unfiltered._spans(whole, None)), text
    _same(prefiltered, unfiltered, whole)
