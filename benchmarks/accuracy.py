"""Accuracy benchmark: precision, recall and F1 per entity on seeded, labelled documents.

Documents are SAP-style and application log lines, JSON tool payloads and
Portuguese prose.  Planted values come in every written form; decoys are values
that look alike but are not personal data: bad check digits, all-equal digits,
11- and 14-digit non-identifiers (mobile numbers that fail the CPF check, order
numbers, timestamps), digit runs that contain a valid identifier, UUIDs, hashes,
versions, service accounts and command flags that are not users.

Decoy numbers are redrawn until they fail the check they imitate: a number that
passes the CPF check cannot be told from a CPF and is redacted on purpose.

A finding counts when its span and entity equal a planted one.  ``leaked`` counts
planted values not fully covered by any finding of any entity: the privacy figure.

    python benchmarks/accuracy.py [--seed 7] [--docs 3000] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import synthetic as syn

MEASURED = ("BR_CPF", "BR_CNPJ", "USERNAME", "BR_CNH", "BR_PIS", "BR_TITULO_ELEITOR", "BR_CNS",
            "BR_RENAVAM", "BR_RG", "BR_CEP", "BR_PHONE", "BR_PIX_EVP", "BR_PIX_BRCODE",
            "BR_PLACA", "BR_BANK_ACCOUNT", "BR_CNJ", "BR_ENDERECO", "DATA_NASCIMENTO")
#: Identifiers that count with a check digit (target 0.98); the others need context (0.90).
CHECKED = ("BR_CPF", "BR_CNPJ", "BR_CNH", "BR_PIS", "BR_TITULO_ELEITOR", "BR_CNS", "BR_RENAVAM",
           "BR_PIX_BRCODE", "BR_CNJ")


@dataclass
class Doc:
    kind: str
    text: str = ""
    spans: list[tuple[int, int, str]] = field(default_factory=list)

    def add(self, text: str) -> Doc:
        self.text += text
        return self

    def plant(self, value: str, entity: str) -> Doc:
        self.spans.append((len(self.text), len(self.text) + len(value), entity))
        self.text += value
        return self


class Generator:
    """Seeded generator of labelled documents (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.known_users = sorted({syn.username(self.rng, style="initial")
                                   for _ in range(40)})

    # values ---------------------------------------------------------------------
    def cpf(self) -> str:
        forms = syn.cpf_forms(syn.random_cpf(self.rng))
        return forms[self.rng.choice(list(forms))]

    def cnpj(self) -> str:
        alnum = self.rng.random() < 0.35
        forms = syn.cnpj_forms(syn.random_cnpj(self.rng, alphanumeric=alnum))
        return forms[self.rng.choice(list(forms))]

    def user(self, style: str | None = None) -> str:
        return syn.username(self.rng, style=style)

    def digits(self, n: int) -> str:
        return "".join(self.rng.choice(string.digits) for _ in range(n))

    def ts(self) -> str:
        return f"2026{self.rng.randint(1, 12):02d}{self.rng.randint(1, 28):02d} " \
               f"{self.rng.randint(0, 23):02d}{self.rng.randint(0, 59):02d}" \
               f"{self.rng.randint(0, 59):02d}"

    def iso(self) -> str:
        return f"2026-11-{self.rng.randint(1, 28):02d} {self.rng.randint(0, 23):02d}:" \
               f"{self.rng.randint(0, 59):02d}:{self.rng.randint(0, 59):02d}." \
               f"{self.rng.randint(0, 999):03d}"

    # planted lines ----------------------------------------------------------------
    def sap_line(self) -> Doc:
        d = Doc("sap").add(self.ts() + " ")
        choice = self.rng.randrange(6)
        if choice == 0:
            d.add("SAPMF02D XD02 USER=").plant(self.user("sap"), "USERNAME")
            d.add(" KNA1 changed STCD2=").plant(syn.random_cpf(self.rng), "BR_CPF")
            d.add(f" KUNNR={self.digits(10)}")
        elif choice == 1:
            d.add("SAPMF02D XD01 USER=").plant(self.user("sap"), "USERNAME")
            alnum = self.rng.random() < 0.3
            if self.rng.random() < 0.2:
                # A head office whose root reads as a date: 19720313 0001 42 looks like a
                # timestamp (1972-03-13 00:01:42) and must still be found.
                root = (f"{self.rng.randint(1950, 2030)}{self.rng.randint(1, 12):02d}"
                        f"{self.rng.randint(1, 28):02d}0001")
                cnpj = root + syn.cnpj_check_digits(root)
            else:
                cnpj = syn.random_cnpj(self.rng, alphanumeric=alnum)
            d.add(" KNA1 created STCD1=").plant(cnpj, "BR_CNPJ")
            d.add(" LAND1=BR")
        elif choice == 2:
            d.add("SAPMSSY1 SM21 Logon failed for user ").plant(self.user("sap"), "USERNAME")
            d.add(f" in client {self.rng.choice(['000', '100', '300'])}")
        elif choice == 3:
            d.add("SAPLSUU5 SU01 user ").plant(self.user("sap"), "USERNAME")
            d.add(" locked by administrator after 5 failed logons")
        elif choice == 4:
            d.add("RSUSR002 BNAME = ").plant(self.user("sap"), "USERNAME")
            d.add(" UFLAG=128 CLASS=SUPER")
        else:
            d.add("SAPMV45A VA01 USER=").plant(self.user("sap"), "USERNAME")
            d.add(f" MSG=V1 311 Sales document {self.digits(10)} saved SOLD_TO={self.digits(10)}")
        return d

    def app_line(self) -> Doc:
        d = Doc("app").add(f"{self.iso()} INFO  ")
        choice = self.rng.randrange(14)
        u = self.user(self.rng.choice(("initial", "dotted", "digits")))
        if choice == 0:
            d.add("c.e.o.CustomerApi - cadastro atualizado cliente CPF ").plant(self.cpf(),
                                                                               "BR_CPF")
            d.add(" uf=SP")
        elif choice == 1:
            d.add("nfe-emitter: destinatario CNPJ ").plant(self.cnpj(), "BR_CNPJ")
            d.add(" rejeicao 539 duplicidade")
        elif choice == 2:
            key = self.rng.choice(["user=", "usuário: ", "login=", "owner: ", "username=",
                                   "Usuario=", "logon: "])
            d.add(f"auth - session opened {key}").plant(u, "USERNAME").add(" ok")
        elif choice == 3:
            d.add("deploy - ssh ").plant(u, "USERNAME").add("@10.0.3.17 'systemctl restart app'")
        elif choice == 4:
            d.add("shell - [").plant(u, "USERNAME").add("@srv-app01 ~]$ tail -f app.log")
        elif choice == 5:
            d.add("fs - reading /home/").plant(u, "USERNAME").add("/app/config.yml")
        elif choice == 6:
            d.add("fs - reading C:\\Users\\").plant(u, "USERNAME").add("\\AppData\\Local\\x.log")
        elif choice == 7:
            d.add("exec - uid=1000(").plant(u, "USERNAME").add(") gid=1000 groups=27(sudo)")
        elif choice == 8:
            d.add("cron - sudo -u ").plant(u, "USERNAME").add(" crontab -l")
        elif choice == 9:
            d.add("sshd[811]: Failed password for invalid user ").plant(u, "USERNAME")
            d.add(" from 10.1.2.3 port 52211 ssh2")
        elif choice == 10:
            d.add("db - psql --username ").plant(u, "USERNAME").add(" -d vendas -c 'select 1'")
        elif choice == 11:
            form = self.rng.randrange(3)
            if form == 0:
                d.add("git - user.name=").plant(u, "USERNAME").add(" core.editor=vim")
            elif form == 1:
                d.add("soap - <user>").plant(u, "USERNAME").add("</user><op>consulta</op>")
            else:
                first = self.rng.choice(("Maria", "Joana", "Paulo", "Renata", "Caio"))
                last = self.rng.choice(("da Silva", "Moreira", "de Souza", "Prado"))
                d.add("crm - atendente: ").plant(f"{first} {last}", "USERNAME")
                d.add(" registrou o chamado")
        elif choice == 12:
            d.add("sudo: ").plant(u, "USERNAME").add(" : TTY=pts/1 ; PWD=/srv ; USER=root ;"
                                                    " COMMAND=/bin/systemctl restart app")
        else:
            d.add("billing - cliente CPF ").plant(self.cpf(), "BR_CPF")
            d.add(" empresa CNPJ ").plant(self.cnpj(), "BR_CNPJ")
        return d

    def json_doc(self) -> Doc:
        d = Doc("json")
        choice = self.rng.randrange(3)
        if choice == 0:
            d.add('{"tool_name": "Bash", "tool_input": {"command": "grep ')
            d.plant(self.cpf(), "BR_CPF").add(' /var/log/app/clientes.log", ')
            d.add('"description": "Procura o cliente", "timeout": 60000}}')
        elif choice == 1:
            d.add('{"cliente": {"cpf": "').plant(syn.random_cpf(self.rng), "BR_CPF")
            d.add('", "cnpj": "').plant(self.cnpj(), "BR_CNPJ")
            d.add(f'", "pedido": "{self.digits(10)}"}}, "operador": "')
            d.plant(self.user("initial"), "USERNAME").add('"}')
        else:
            d.add('{"content": [{"type": "text", "text": "Fornecedor ')
            d.plant(self.cnpj(), "BR_CNPJ").add(' cadastrado por ')
            d.add('usuário \'').plant(self.user("dotted"), "USERNAME").add('\'"}]}')
        return d

    def prose(self) -> Doc:
        d = Doc("prose")
        choice = self.rng.randrange(4)
        if choice == 0:
            d.add("O contribuinte, inscrito no CPF sob o nº ").plant(self.cpf(), "BR_CPF")
            d.add(", solicitou a revisão do cadastro junto ao atendimento.")
        elif choice == 1:
            d.add("A empresa contratada, CNPJ ").plant(self.cnpj(), "BR_CNPJ")
            d.add(", enviou a nota fiscal com atraso de três dias.")
        elif choice == 2:
            d.add("Segundo ").plant(self.rng.choice(self.known_users), "USERNAME")
            d.add(", o relatório mensal foi aprovado sem ressalvas pela diretoria.")
        else:
            d.add("Conforme combinado, o usuário pode acessar o sistema e o ")
            d.plant(self.rng.choice(self.known_users), "USERNAME")
            d.add(" revisa os acessos amanhã.")
        return d

    # decoys -------------------------------------------------------------------------
    def decoy(self) -> Doc:
        d = Doc("decoy")
        rng = self.rng
        bad_cpf = syn.cpf_forms(syn.invalid_cpf(rng))
        bad_cnpj = syn.cnpj_forms(syn.invalid_cnpj(rng, alphanumeric=rng.random() < 0.3))
        embedded = self.digits(6) + syn.random_cnpj(rng) + self.digits(24)  # NF-e-like key
        options: list[Callable[[], str]] = [
            lambda: f"{self.iso()} INFO sac - protocolo {self.digits(5)}-{self.digits(3)} "
                    "registrado; valor BRL1000",
            lambda: f"{self.iso()} WARN cadastro - CPF invalido "
                    f"{rng.choice(list(bad_cpf.values()))} rejeitado",
            lambda: f"{self.iso()} WARN cadastro - CNPJ com digito errado "
                    f"{rng.choice(list(bad_cnpj.values()))}",
            lambda: f"{self.iso()} INFO teste - valores de exemplo 111.111.111-11 e "
                    "00.000.000/0000-00 e 22222222222",
            lambda: f"{self.ts()} RSBTCDEL job finished at {syn.timestamp14(rng)} "
                    f"order {syn.invalid_cpf(rng)} ref {self.digits(12)}",
            lambda: f"{self.iso()} INFO nfe - chave de acesso {embedded} autorizada",
            lambda: f"{self.iso()} INFO ledger - doc {self.digits(3)}{syn.random_cpf(rng)}"
                    f"{self.digits(2)} posted",
            lambda: f"traceId={uuid.UUID(int=rng.getrandbits(128))} sha256="
                    f"{rng.getrandbits(256):064x} version=2.2.366 build 2026.11.19",
            lambda: "git push -u origin main && python -u manage.py migrate && "
                    "npm i typescript@latest",
            lambda: f"{self.iso()} INFO ci - workspace /home/runner/work/app user=root "
                    "owner: postgres",
            lambda: f"{self.ts()} SAPMSSY1 SM21 User DDIC logged on in client 000; user SAP* "
                    "locked; USER=TMSADM",
            lambda: f"{self.iso()} INFO s4 - started by s4hadm uid=1001(s4hadm) as www-data",
            lambda: f"{self.iso()} INFO sku={syn.invalid_cnpj(rng, alphanumeric=True)} "
                    f"lote={''.join(rng.choice('ABCDEF0123456789') for _ in range(14))}",
            lambda: f"IDOC {self.digits(16)} DEBMAS05 status=53 partner=BR_CUST_{self.digits(5)}",
            lambda: "O usuário pode redefinir a senha; o login falhou para o usuário informado.",
            lambda: f"{self.iso()} INFO auth - login: success user: null; User NOT FOUND; "
                    "user ID 4711; created_by=system; user: ${USER}",
            lambda: "curl --user-agent Mozilla -H 'User-Agent: curl/8.0' https://api.exemplo.com",
        ]
        return d.add(rng.choice(options)())

    # the other Brazilian identifiers ------------------------------------------------
    def _with_keyword(self, d: Doc, keyword: str, value: str, entity: str) -> Doc:
        """``keyword value`` or ``value (keyword)``, the keyword on either side."""
        if self.rng.random() < 0.75:
            sep = self.rng.choice([" ", ": ", " nº ", "="])
            return d.add(f"{keyword}{sep}").plant(value, entity)
        return d.plant(value, entity).add(f" ({keyword})")

    def other_ids(self) -> Doc:
        rng = self.rng
        d = Doc("other").add(f"{self.iso()} INFO  cadastro - ")
        choice = rng.randrange(18)
        if choice == 0:
            self._with_keyword(d, rng.choice(["CNH", "habilitação", "carteira de motorista"]),
                               syn.random_cnh(rng), "BR_CNH")
        elif choice == 1:
            pis = syn.random_pis(rng)
            value = f"{pis[:3]}.{pis[3:8]}.{pis[8:10]}-{pis[10]}" if rng.random() < 0.4 else pis
            self._with_keyword(d, rng.choice(["PIS", "NIS", "PIS/PASEP", "NIT"]), value,
                               "BR_PIS")
        elif choice == 2:
            titulo = syn.random_titulo(rng)
            value = f"{titulo[:4]} {titulo[4:8]} {titulo[8:]}" if rng.random() < 0.5 else titulo
            self._with_keyword(d, rng.choice(["título de eleitor", "título eleitoral",
                                              "inscrição eleitoral"]), value,
                               "BR_TITULO_ELEITOR")
        elif choice == 3:
            cns = syn.random_cns(rng)
            if rng.random() < 0.5:
                d.add("carteirinha ").plant(f"{cns[:3]} {cns[3:7]} {cns[7:11]} {cns[11:]}",
                                            "BR_CNS")
            else:
                self._with_keyword(d, rng.choice(["cartão SUS", "CNS", "paciente"]), cns,
                                   "BR_CNS")
        elif choice == 4:
            renavam = syn.random_renavam(rng)
            value = f"{renavam[:10]}-{renavam[10]}" if rng.random() < 0.3 else renavam
            self._with_keyword(d, rng.choice(["RENAVAM", "CRLV", "IPVA do veículo"]), value,
                               "BR_RENAVAM")
        elif choice == 5:
            d.add(rng.choice(["RG ", "identidade ", "carteira de identidade "]))
            d.plant(syn.random_rg_sp(rng), "BR_RG").add(rng.choice([" SSP/SP", "", " emitido"]))
        elif choice == 6:
            if rng.random() < 0.33:
                d.add("endereço: ").plant("Rua das Flores, 100", "BR_ENDERECO").add(" - CEP ")
            else:
                d.add(rng.choice(["CEP ", "cep: "]))
            d.plant(syn.random_cep(rng), "BR_CEP").add(" - São Paulo/SP")
        elif choice == 7:
            forms = syn.phone_forms(rng)
            form = rng.choice(["international", "international_parens", "parens", "bare"])
            if form == "bare":
                self._with_keyword(d, rng.choice(["celular", "telefone", "whatsapp", "tel"]),
                                   forms[form], "BR_PHONE")
            else:
                d.add("contato do titular ").plant(forms[form], "BR_PHONE")
        elif choice == 8:
            self._with_keyword(d, rng.choice(["chave pix", "chave aleatória", "pix"]),
                               syn.random_evp(rng), "BR_PIX_EVP")
        elif choice == 9:
            key = rng.choice([syn.random_evp(rng), syn.username(rng, style="dotted")
                              + "@exemplo.com.br", f"+55{rng.choice(syn.DDDS)}9{self.digits(8)}"])
            name = rng.choice(["Maria Silva", "Joao P Souza", "Loja Azul"])
            d.add("pix copia e cola: ").plant(syn.brcode(key, name, "SAO PAULO"),
                                              "BR_PIX_BRCODE")
        elif choice == 10:
            mercosul = rng.random() < 0.6
            plate = syn.random_plate(rng, mercosul=mercosul)
            if mercosul:
                d.add("entrada do carro ").plant(plate, "BR_PLACA")
            else:
                self._with_keyword(d, rng.choice(["placa", "veículo"]), plate, "BR_PLACA")
        elif choice == 11:
            agency = self.digits(4)
            account = f"{self.digits(rng.randint(5, 8))}-{rng.choice('0123456789X')}"
            d.add(f"favorecido Banco {rng.choice(['001', '237', '341', '104'])} Ag. ")
            d.plant(agency, "BR_BANK_ACCOUNT").add(" C/C ").plant(account, "BR_BANK_ACCOUNT")
        elif choice == 12:
            d.add(rng.choice(["processo nº ", "autos ", "Processo "]))
            d.plant(syn.cnj_number(rng), "BR_CNJ").add(" em andamento")
        elif choice == 13:
            # 11 digits that pass the CPF check and a weaker one: the keyword decides.
            while True:
                value = syn.random_pis(rng)
                if syn.cpf_is_valid_reference(value):
                    break
            self._with_keyword(d, "PIS", value, "BR_PIS")
        elif choice == 14:
            d.add("NotifyService - SMS enviado telefone=").plant(syn.mobile_not_cpf(rng),
                                                                  "BR_PHONE")
            d.add(f" protocolo={syn.timestamp14(rng)} status=OK")
        elif choice == 16:
            d.add(rng.choice(["entrega em ", "endereço: ", "residente na ", "cliente mora na ",
                              ""]))
            d.plant(self.address(), "BR_ENDERECO")
            d.add(rng.choice([", São Paulo - SP", " - Centro", "", " CEP "]))
            if d.text.endswith("CEP "):
                d.plant(syn.random_cep(rng), "BR_CEP")
        elif choice == 17:
            d.add(rng.choice(["data de nascimento: ", "nascido em ", "nasc. ", "DN: ",
                              "dob=", "Data Nasc.: "]))
            d.plant(self.birth_date(), "DATA_NASCIMENTO")
        else:
            d.add("cliente CPF ").plant(self.cpf(), "BR_CPF").add(" PIS ")
            d.plant(syn.random_pis(rng), "BR_PIS")
        return d

    STREETS = ("das Flores", "Augusta", "Sete de Setembro", "Barão de Mauá", "Marechal Deodoro",
               "XV de Novembro", "Padre Anchieta", "dos Andradas", "Getúlio Vargas", "Brasil",
               "Dom Pedro II", "Boa Vista", "Santos Dumont", "da Consolação")

    def address(self) -> str:
        rng = self.rng
        kind = rng.choice(["Rua", "R.", "Av.", "Avenida", "Travessa", "Alameda", "rua"])
        text = f"{kind} {rng.choice(self.STREETS)}{rng.choice([', ', ' ', ', nº '])}"
        text += str(rng.randint(1, 9999))
        if rng.random() < 0.5:
            text += rng.choice([", apto ", " - apto ", " bloco ", ", casa ", " sala "])
            text += str(rng.randint(1, 300))
        return text.upper() if rng.random() < 0.2 else text

    MONTHS = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
              "setembro", "outubro", "novembro", "dezembro")

    def birth_date(self) -> str:
        rng = self.rng
        year, month, day = rng.randint(1930, 2010), rng.randint(1, 12), rng.randint(1, 28)
        return rng.choice([f"{day:02d}/{month:02d}/{year}", f"{year}-{month:02d}-{day:02d}",
                           f"{day} de {self.MONTHS[month - 1]} de {year}",
                           f"{day:02d}.{month:02d}.{year}"])

    def other_decoy(self) -> Doc:
        """Same shapes without their keyword, or with a wrong check digit."""
        rng = self.rng
        # Redrawn until no check passes that would make them an identifier after all.
        while True:
            bad_cnh = syn.random_cnh(rng)
            bad_cnh = bad_cnh[:10] + str((int(bad_cnh[10]) + 1) % 10)
            if not (syn.cpf_is_valid_reference(bad_cnh) or any(
                    bad_cnh[9:] == syn.cnh_check_digits(bad_cnh[:9], discount=rule)
                    for rule in (True, False))):
                break
        while True:
            pis = syn.random_pis(rng)
            if not syn.cpf_is_valid_reference(pis):
                break
        cnj = syn.cnj_number(rng)
        bad_cnj = f"{cnj[:8]}{(int(cnj[8:10]) + 1) % 100:02d}{cnj[10:]}"
        options: list[Callable[[], str]] = [
            lambda: f"{self.iso()} INFO batch - lote {pis} processado",
            lambda: f"{self.iso()} INFO build - id {syn.random_titulo(rng)} ok",
            lambda: f"{self.iso()} WARN cadastro - CNH {bad_cnh} rejeitada (digito)",
            lambda: f"{self.iso()} WARN cadastro - PIS {pis[:10]}{(int(pis[10]) + 1) % 10} "
                    "rejeitado",
            lambda: f"traceId={syn.random_evp(rng)} spanId={rng.getrandbits(64):016x}",
            lambda: f"{self.iso()} INFO cambio - BRL{self.digits(4)} USD{self.digits(4)} "
                    f"GRU{self.digits(4)}",
            lambda: f"{self.iso()} INFO sac - ligue 0800 {self.digits(3)} {self.digits(4)} ou "
                    f"4004-{self.digits(4)}",
            lambda: f"{self.iso()} INFO fatura - referencia {self.digits(5)}-{self.digits(3)} "
                    f"data {self.ts()[:8]}",
            lambda: f"{self.iso()} INFO juridico - processo {bad_cnj} (digito errado)",
            lambda: f"{self.iso()} INFO cc - enviado com cc para a equipe, conta de e-mail ok",
            lambda: f"{self.iso()} INFO ddd - fone (23) 9{self.digits(4)}-{self.digits(4)} "
                    "invalido",
            lambda: f"{self.iso()} INFO pedido - criado em {self.birth_date()} entregue",
            lambda: f"{self.iso()} INFO chamado - a rua estava alagada em "
                    f"{rng.randint(2000, 2025)}",
            lambda: f"{self.iso()} WARN rota - avenida principal fechada, desvio {self.digits(2)}",
        ]
        return Doc("decoy").add(rng.choice(options)())

    def documents(self, count: int) -> list[Doc]:
        makers = [self.sap_line, self.app_line, self.json_doc, self.prose, self.other_ids,
                  self.other_ids]
        docs: list[Doc] = []
        for _ in range(count):
            draw = self.rng.random()
            maker = (self.decoy if draw < 0.2 else self.other_decoy if draw < 0.3
                     else self.rng.choice(makers))
            docs.append(maker())
        return docs


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def as_dict(self) -> dict[str, float | int]:
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "precision": round(precision, 4),
                "recall": round(recall, 4), "f1": round(f1, 4)}


def evaluate(docs: Iterable[Doc], analyze: Callable[[str], Iterable[Any]]) -> dict[str, Any]:
    """Score ``analyze`` (text -> findings with start, end, entity_type) on labelled docs."""
    scores = {entity: Score() for entity in MEASURED}
    leaked: Counter[str] = Counter()
    planted: Counter[str] = Counter()
    for doc in docs:
        found = [(f.start, f.end, f.entity_type) for f in analyze(doc.text)]
        gold = set(doc.spans)
        predicted = {span for span in found if span[2] in MEASURED}
        for span in gold:
            planted[span[2]] += 1
            if span in predicted:
                scores[span[2]].tp += 1
            else:
                scores[span[2]].fn += 1
            covered = sorted((s, e) for s, e, _ in found if s < span[1] and e > span[0])
            cursor = span[0]
            for s, e in covered:
                if s > cursor:
                    break
                cursor = max(cursor, e)
            if cursor < span[1]:
                leaked[span[2]] += 1
        for span in predicted - gold:
            scores[span[2]].fp += 1
    return {
        entity: {**scores[entity].as_dict(), "planted": planted[entity],
                 "leaked": leaked[entity]}
        for entity in MEASURED
    }


def run(seed: int = 7, docs: int = 3000) -> dict[str, Any]:
    """Generate the corpus, analyse it with the default engine, return the metrics."""
    from redactor import Settings
    from redactor.engine import Redactor

    generator = Generator(seed)
    corpus = generator.documents(docs)
    engine = Redactor(Settings(known_users=tuple(generator.known_users)))
    started = time.perf_counter()
    metrics = evaluate(corpus, engine.analyze)
    elapsed = time.perf_counter() - started
    return {"seed": seed, "documents": docs, "seconds": round(elapsed, 3),
            "characters": sum(len(d.text) for d in corpus), "entities": metrics}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--docs", type=int, default=3000)
    parser.add_argument("--json", type=Path, default=Path("benchmarks/out/accuracy.json"))
    args = parser.parse_args(argv)
    result = run(args.seed, args.docs)
    print(f"seed {result['seed']}, {result['documents']} documents, "
          f"{result['characters']} characters, analysed in {result['seconds']} s")
    print(f"{'entity':<10} {'planted':>7} {'tp':>6} {'fp':>5} {'fn':>5} {'precision':>9} "
          f"{'recall':>7} {'f1':>7} {'leaked':>6}")
    for entity, m in result["entities"].items():
        print(f"{entity:<10} {m['planted']:>7} {m['tp']:>6} {m['fp']:>5} {m['fn']:>5} "
              f"{m['precision']:>9.4f} {m['recall']:>7.4f} {m['f1']:>7.4f} {m['leaked']:>6}")
    result["names"] = people_names(args.seed)
    from benchmarks import credentials

    print("SECRET on the generated credentials set (python benchmarks/credentials.py):")
    result["secrets"] = credentials.run(args.seed)
    credentials.report(result["secrets"])
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"written to {args.json}")
    return 0


def people_names(seed: int) -> dict[str, Any]:
    """PERSON on LeNER-Br's test split and on the generated name set; printed and returned."""
    from benchmarks import lener, names
    from redactor.config import Settings
    from redactor.engine import Redactor

    score = lener.evaluate(Redactor(Settings()))
    print(f"PERSON on LeNER-Br test (PESSOA, {score.gold} names): overlap recall "
          f"{score.recall:.4f}, overlap precision {score.precision:.4f} "
          f"({score.predicted} findings); targets 0.95 and 0.90")
    own = names.run(seed)
    print(f"PERSON on the generated name set (seed {seed}): name recall "
          f"{own['name_recall']:.4f} (every word gone), look-alikes intact "
          f"{own['lookalikes_intact']:.4f}; targets 0.95 and 0.95")
    return {"lener_recall": score.recall, "lener_precision": score.precision,
            "lener_gold": score.gold, "set_recall": own["name_recall"],
            "set_intact": own["lookalikes_intact"]}


if __name__ == "__main__":
    sys.exit(main())
