"""Values shaped like personal data that name no one (issue 28): loopback and network
addresses, versions and section numbers, role and list e-mail addresses, log columns
that pass a card's Luhn check."""

from __future__ import annotations

import pytest

from redactor.engine import Redactor


def found(engine: Redactor, text: str) -> list[tuple[str, str]]:
    return [(f.entity_type, text[f.start:f.end]) for f in engine.analyze(text)]


@pytest.mark.parametrize("text", [
    "backend up at 127.0.0.1:8080 and ::1, listening on 0.0.0.0",
    "netmask 255.255.255.0 broadcast 255.255.255.255",
    "a rede 192.168.1.0/24 e a rede 10.20.0.0/16; a rede 192.168.1.0",
    'Mozilla/5.0 (X11; U; Linux i686; en-US; rv:1.8.1.14) Gecko/20080404 Firefox/2.0.0.14',
    "o kernel 2.6.23.6 e a versão 1.2.3.4",
    "3.11.3.3. Testando o funcionamento\n15.6.2.1. /etc/resolv.conf",
    "Veja a Seção 3.11.3.3, `Testando o funcionamento'.",
    # A space lost in rendering, a line wrapped after the word.
    "remendos (vejaSeção 4.2.7.9, “Enviando correções”).",
    "os níveis estão em Seção\n          12.4.1.3, `Arquivo de configuração'.",
    "multicast 224.0.0.251 e ff02::1",
    "mapped loopback ::ffff:127.0.0.1 and ::ffff:0.0.0.0",
    # Four-part package versions with their Debian revision (dpkg.log, apt, changelogs).
    "Unpacking alsa-topology-conf (1.2.5.1-2) ...\nalsa-lib (1.2.5.1-1) unstable",
    "Preparing to unpack .../021-alsa-topology-conf_1.2.5.1-2_all.deb ...",
    "conflict with libxft-dev <= 2.1.8.2-5. Thanks\nlibxfixes (1:3.0.1.2-5) UNRELEASED",
    "upgrade foo 4.3.2.1-0ubuntu1 and bar 4.3.2.7-3+deb12u8 and baz 4.3.2.9-1~bpo11+1",
    "2025-06-24 14:37:47 status half-installed alsa-topology-conf:all 1.2.5.1-2",
    "2025-06-24 14:37:47 upgrade libfoo:amd64 1.2.3.4-1 1.2.3.5-1",
    "Depends: libasound2 (>= 1.2.5.1-1), libfoo (= 1.2.3.7-2)",
    "Install: alsa-topology-conf:amd64 (1.2.5.1-2, automatic)\n"
    "Upgrade: libasound2:amd64 (1.2.4.1-1, 1.2.5.1-2)",
    # 0.0.0.0/8 is "this network": p11-kit (0.23.18.1-2) and no host.
    "version 0.23.18.1 and 0.5.7.1",
    # Releases narrated in changelogs, NEWS files and release notes: a one-digit first
    # part, parts of up to two digits, and a product, a word or a heading around them.
    "pacote-base (2.0.3.5) unstable; urgency=high\n",
    "  * Updated package to Policy 3.6.1.1.\n  * Standards-Version to 2.3.0.1.",
    "  * Standards-Version updated to 4.6.0.1\n    - update the Standards-version to 4.4.0.1",
    "fails when resumed on linux-2.6.8.1, and zlib-1.2.8.1 too",
    "This was fixed in 1.5.4.1.\nFerramenta 1.7.12.2 Release Notes\n",
    "news\n3.23.91.1\n  - bringing back an icon\n",
    "need zlib >= 1.2.2.3. Bump to 1.2.99.1",
    "man-db 2.8.6.1 (5 August 2019)\n======",
    "  + logbase (5.3.6.12): log_x(y);\n",
])
def test_addresses_that_name_no_host(engine: Redactor, text: str) -> None:
    assert [v for e, v in found(engine, text) if e == "IP_ADDRESS"] == []


@pytest.mark.parametrize(("text", "address"), [
    ('192.0.2.44 - - [10/Oct/2024:13:55:36 -0300] "GET / HTTP/1.1" 200 2326', "192.0.2.44"),
    ("Failed password for root from 203.0.113.9 port 22 ssh2", "203.0.113.9"),
    ("inet 192.168.1.10/24 brd 192.168.1.255", "192.168.1.10/24"),
    ("cliente em 10.0.0.1 Fulano", "10.0.0.1"),
    ("v6 2001:db8::5 ok", "2001:db8::5"),
    # A dual-stack sshd writes its IPv4 clients mapped; ipaddress counts ::ffff:0:0/96
    # as reserved, the host it maps is not.
    ("Failed publickey for root from ::ffff:203.0.113.9 port 51332 ssh2",
     "::ffff:203.0.113.9"),
    # Address ranges are no package revisions.
    ("range 10.0.0.1-10.0.0.9 ok", "10.0.0.1"),
    ("range 10.0.0.1-10.0.0.9 ok", "10.0.0.9"),
    ("nmap -sn 192.168.1.1-254", "192.168.1.1"),
    ("nmap -sS 198.51.100.1-50", "198.51.100.1"),
    ("DHCP range 192.0.2.1-10 assigned", "192.0.2.1"),
    ("iptables -A INPUT -m iprange --src-range 203.0.113.5-9 -j DROP", "203.0.113.5"),
    ("alias hosts: 192.0.2.10-15, 192.0.2.20", "192.0.2.10"),
    ("Connection from 203.0.113.5-1 port 4422", "203.0.113.5"),
    # A third review: "=", parentheses and a list are no package's context either.
    ("src_range=203.0.113.5-9", "203.0.113.5"),
    ("iptables -m iprange --src-range=203.0.113.5-9", "203.0.113.5"),
    ("ignoreip = 192.0.2.10-20", "192.0.2.10"),
    ("Scan targets (198.51.100.1-50)", "198.51.100.1"),
    ("Warning Failed to allocate (192.0.2.15-1)", "192.0.2.15"),
    ("Allowed (198.51.100.4, 203.0.113.7-9)", "203.0.113.7"),
    ("ip (203.0.113.7-1\nnext", "203.0.113.7"),
    ("libfoo:amd64 203.0.113.7-1", "203.0.113.7"),
    ("client 203.0.113.9-51234 x", "203.0.113.9"),
    # Addresses written like releases (a one-digit first part, two-digit parts) are
    # addresses where nothing narrates a release.
    ("Failed password for root from 3.85.12.44 port 22 ssh2", "3.85.12.44"),
    ("3.85.12.44 - - [10/Oct/2024:13:55:36 -0300] \"GET / HTTP/1.1\" 200 2326\n"
     "3.85.12.45 - - [10/Oct/2024:13:55:37 -0300] \"GET / HTTP/1.1\" 200 2326\n",
     "3.85.12.45"),
    ("PING 8.8.4.4 (8.8.4.4) 56(84) bytes of data.", "8.8.4.4"),
    ("? (3.8.1.4) at 00:11:22:33:44:55 [ether] on eth0", "3.8.1.4"),
    (" 1  gw (3.8.1.4)  0.512 ms  0.498 ms", "3.8.1.4"),
    ('{"remote_addr":"3.85.12.44","status":200}', "3.85.12.44"),
    ("fail2ban.actions: NOTICE [sshd] Ban 3.85.12.44", "3.85.12.44"),
    ("between 3.8.1.4 and 3.8.1.9", "3.8.1.4"),
    ("3.85.12.44\n3.85.12.45\n", "3.85.12.44"),
    # Found by review: words and marks a log writes before or after an address.
    ("Blocked 198.51.100.7 -> 3.85.12.44", "3.85.12.44"),
    ("NAT 198.51.100.7:5555 > 3.85.12.44:22", "3.85.12.44"),
    ("ddclient[812]: SUCCESS: IP address updated to 3.85.12.44", "3.85.12.44"),
    ("deploy: ssh 3.85.12.44 rc=255", "3.85.12.44"),
    ("dnsmasq-dhcp[1]: lease 3.85.12.44 released", "3.85.12.44"),
    ("    server web1 3.85.12.44:80 check", "3.85.12.44"),
    ("eth0 3.85.12.44 netmask 255.255.255.0", "3.85.12.44"),
    ("Nmap scan report for host.example (3.85.12.44)", "3.85.12.44"),
    ("traceroute to 3.85.12.44 (3.85.12.44), 30 hops max", "3.85.12.44"),
    ("since 3.85.12.44 went down; upstream 3.85.12.44 failed", "3.85.12.44"),
    ("policy 3.85.12.44 denied; more than 3.85.12.44", "3.85.12.44"),
    ("hosts:\n3.85.12.44\n- ssh: open", "3.85.12.44"),
    ("Inventory\n3.85.12.44\n-----", "3.85.12.44"),
    ("x-3.85.12.44", "3.85.12.44"),
    # tcpdump writes each address with its port after a dot (found by review).
    ("12:00:00.123456 IP 198.51.100.7.51234 > 203.0.113.9.22: Flags [S], seq 1",
     "198.51.100.7"),
    ("12:00:00.123456 IP 198.51.100.7.51234 > 203.0.113.9.22: Flags [S], seq 1",
     "203.0.113.9"),
    ('{"msg": "IP 10.0.0.5.443 > 3.85.12.44.51234: Flags [P.]"}', "3.85.12.44"),
    # Cisco ASA writes its interface before a slash and the port in parentheses.
    ("%ASA-4-106100: access-list acl-out denied tcp outside/198.51.100.7(51234) -> "
     "inside/10.0.0.5(22) hit-cnt 1 first hit", "198.51.100.7"),
    ("%ASA-4-106100: access-list acl-out denied tcp outside/198.51.100.7(51234) -> "
     "inside/10.0.0.5(22) hit-cnt 1 first hit", "10.0.0.5"),
])
def test_host_addresses_are_still_found(engine: Redactor, text: str, address: str) -> None:
    assert ("IP_ADDRESS", address) in found(engine, text)


@pytest.mark.parametrize("address", [
    "portuguese@lists.debian.org", "bug-grep@gnu.org", "wdiff-bugs@gnu.org",
    "postmaster@exemplo.com.br", "noreply@exemplo.com", "contato@empresa.com.br",
    "hmac-sha2-256-etm@openssh.com", "rijndael-cbc@lysator.liu.se",
    "44087D8C.9090407@exemplo.com",
])
def test_role_list_and_program_addresses_name_no_one(engine: Redactor, address: str) -> None:
    assert found(engine, f"escreva para {address} hoje") == []


@pytest.mark.parametrize("address", [
    "carla.menezes@exemplo.com.br", "jsilva@empresa.com.br", "ana-souza@exemplo.com",
])
def test_personal_addresses_are_still_found(engine: Redactor, address: str) -> None:
    assert found(engine, f"escreva para {address} hoje") == [("EMAIL_ADDRESS", address)]


def test_log_columns_that_pass_luhn_are_no_card(engine: Redactor) -> None:
    line = '192.0.2.9:5123 [06/Feb/2009:12:14:14.655] fe be/srv 10/0/30/69/109 200 2750 - -'
    columns = "GET /index 1419 200 154996 - 5206 200 154456"
    assert [e for e, _ in found(engine, columns)] == []
    assert ("CREDIT_CARD", "4111 1111 1111 1111") in found(engine, "pago 4111 1111 1111 1111")
    assert ("CREDIT_CARD", "3782 822463 10005") in found(engine, "amex 3782 822463 10005")
    # A keyword still lifts a number written in other groups.
    assert [e for e, _ in found(engine, "cartão 1419 200 154996")] == ["CREDIT_CARD"]
    assert "CREDIT_CARD" not in [e for e, _ in found(engine, line)]


def test_broadcast_list_and_tracker_addresses(engine: Redactor) -> None:
    text = ("broadcast 192.168.1.255 e 10.255.255.255; escreva para dicas-l@unicamp.br ou "
            "submit@bugs.debian.org")
    assert found(engine, text) == []


def test_a_common_word_is_not_spread_as_a_name(engine: Redactor) -> None:
    # "Isa Ramos" is a person; the bus "ISA" and the word "Java" alone are not.
    text = "Isa Ramos instalou. Placas ISA e VESA; suporte a Java e Frames."
    assert [v for e, v in found(engine, text) if e == "PERSON"] == ["Isa Ramos"]


def test_an_acronym_is_spread_only_from_a_name_in_capitals(engine: Redactor) -> None:
    text = "FAVORECIDO: JOSE DAS CHAGAS\nPlacas ISA e VESA. Depois JOSE assinou."
    assert [v for e, v in found(engine, text) if e == "PERSON"] == ["JOSE DAS CHAGAS", "JOSE"]


@pytest.mark.parametrize("text", [
    "      - LZ4_attach_dictionary@Base\n      - LZ4_attach_HC_dictionary@Base",
    "memcpy@GLIBC_2.14 and __cxa_throw@CXXABI_1.3",
    ".rn wh wh@old\n.als bp@orig bp\n.  de sgr@dummy\n.  wh@old 0 no@sgr",
    "This allows daemons outside user's session to use per-user PKCS#11 modules",
])
def test_symbols_macros_and_adjectives_name_no_login(engine: Redactor, text: str) -> None:
    assert [v for e, v in found(engine, text) if e == "USERNAME"] == []


def test_a_name_ends_before_the_address_written_after_it(engine: Redactor) -> None:
    # THANKS files and changelogs: a name, a column away its address, whose local part
    # repeats the name; the name's span holds neither the gap nor the local part.
    text = "Ralf Wildenhues \tRalf.Wildenhues@example.org\nManfred Weichel\t\tmw@example.org"
    assert found(engine, text) == [
        ("PERSON", "Ralf Wildenhues"), ("EMAIL_ADDRESS", "Ralf.Wildenhues@example.org"),
        ("PERSON", "Manfred Weichel"), ("EMAIL_ADDRESS", "mw@example.org")]


@pytest.mark.parametrize(("text", "login"), [
    # Hosts named like roff's macros or a symbol's version, outside those files.
    ("ssh jsilva@old", "jsilva"), ("[mfreitas@orig ~]$ ls", "mfreitas"),
    ("ssh jsilva@SRV_01", "jsilva"), ("ssh pfreitas@base", "pfreitas"),
    # A prompt's home folder before its "$"; a login after a key.
    ("root@ctr:/home/jsilva$ ls", "jsilva"), ("Invalid user local from 203.0.113.9", "local"),
    # Lines that start with "." or "'" and are no roff.
    (". ~/.profile; ssh jsilva@old", "jsilva"),
    ("'jsilva@new: Permission denied (publickey).'", "jsilva"),
])
def test_logins_next_to_the_new_refusals_are_still_found(engine: Redactor, text: str,
                                                         login: str) -> None:
    assert ("USERNAME", login) in found(engine, text)


@pytest.mark.parametrize("text", [
    "TargetUserName: NETWORK SERVICE\nAccount Name:  WS01$",
    "Secret Name: prod/db/main\nToken ID: 7f3c2a10-aaaa\nSecret Backend: vault-1",
    "docker login -p options\nsshpass -p option is unsafe\nredis-cli -a for",
])
def test_accounts_resource_names_and_flag_prose_are_no_findings(engine: Redactor,
                                                                text: str) -> None:
    assert found(engine, text) == []


def test_thanks_before_a_name_is_not_part_of_it(engine: Redactor) -> None:
    # Debian changelogs: "Closes: #389506  Thanks Joshua Kwan."
    text = "    Closes: #389506  Thanks Maria Souza.\n  * Thanks Pedro Alves for the patch"
    assert [v for e, v in found(engine, text) if e == "PERSON"] == ["Maria Souza", "Pedro Alves"]


@pytest.mark.parametrize("text", [
    '<Provider Name="Microsoft-Windows-Security-Auditing" '
    'Guid="{54849625-5478-4994-A5BA-3E3B0328C30D}"/>',
    "cartão de crédito: objeto 54849625-5478-4994-A5BA-3E3B0328C30D",
    "cartao 1234 54849625-5478-4994-A5BA-3E3B0328C30D",
])
def test_a_guids_digits_are_no_card(engine: Redactor, text: str) -> None:
    # Its first groups have a separated card's shape, and pass Luhn one time in ten.
    assert [e for e, _ in found(engine, text) if e == "CREDIT_CARD"] == []
    assert ("CREDIT_CARD", "4111 1111 1111 1111") in found(
        engine, text + " cartão 4111 1111 1111 1111")



@pytest.mark.parametrize("text", [
    "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 5.1.2600.5512)",
    "file version 5.1.2600.5512 (xpsp.080413-2111)",
    "driver 6.1.7601.24545 and build 6.3.9600.16384",
])
def test_a_version_of_four_parts_is_no_phone(engine: Redactor, text: str) -> None:
    # 5.1.2600.5512 holds (51) 2600-5512, a landline of Porto Alegre to phonenumbers.
    assert [v for e, v in found(engine, text) if "PHONE" in e] == []


@pytest.mark.parametrize(("text", "phone"), [
    ("telefone 51.2600.5512", "51.2600.5512"),
    ("tel +55.51.2600.5512", "+55.51.2600.5512"),
    ("celular (51) 92600-5512", "(51) 92600-5512"),
    # Found by review: a trunk 0 before the area code, written with dots.
    ("ligue 0.21.3214.5678", "0.21.3214.5678"),
    ("+55 0.11.98765.4321", "+55 0.11.98765.4321"),
])
def test_phones_written_with_dots_are_still_found(engine: Redactor, text: str,
                                                  phone: str) -> None:
    assert phone in [v for e, v in found(engine, text) if "PHONE" in e]
