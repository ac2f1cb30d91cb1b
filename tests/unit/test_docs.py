"""The documentation holds together: links resolve, and the README's commands exist.

Checked files: ``README.md``, every ``docs/**/*.md`` and ``benchmarks/README.md``.

- Every relative link (``[text](path)``, ``[text](path#anchor)``, ``[text](#anchor)``)
  names a file or folder of the repository, and its anchor a heading of the target,
  spelled as GitHub spells heading anchors.
- Every command line of the README's shell blocks runs a program that exists: a
  ``redactor`` command line parses with the CLI's own parser (subcommand, options and
  choices), ``python -m X`` names an importable module, a script or a path it names in
  the repository exists, and any other program is one the README is known to name.
- Every TOML block of ``docs/`` loads as a user configuration (the README's blocks are
  loaded by ``tests/unit/test_config.py``).

The checks are plain functions, each tested below on a broken sample, so that a test
that cannot fail would show.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import tomllib
from pathlib import Path

import pytest

from redactor import cli
from redactor.config import load_settings
from redactor.errors import RedactorError

REPO = Path(__file__).resolve().parents[2]
DOCS = sorted([REPO / "README.md", *(REPO / "docs").rglob("*.md"),
               REPO / "benchmarks" / "README.md"])

#: Programs the README may run that are not this project's: the interpreter, the installer,
#: the shell and what the quick start and the development notes name.
EXTERNAL = frozenset({"pip", "pip3", "pipx", "git", "npm", "java", "time", "sh", "bash",
                      "python", "python3", "claude", "codex", "gemini", "hermes"})
SHELL_BLOCK = re.compile(r"^```(?:sh|bash|shell|console)\n(.*?)^```", re.S | re.M)
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"(?<!!)\[(?:[^\]\n]|\n(?!\n))*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)


def console_scripts() -> frozenset[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return frozenset(project["scripts"])


# ---------------------------------------------------------------- links and anchors


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup dropped, lower case, punctuation removed
    (letters, digits, ``-`` and ``_`` kept), each space a ``-``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    """Every anchor of a document's headings (outside code blocks), repeats numbered."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for match in HEADING.finditer(FENCE.sub("", markdown)):
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(markdown: str) -> list[str]:
    """The targets of a document's links, leaving out code blocks and inline code."""
    prose = INLINE_CODE.sub("", FENCE.sub("", markdown))
    return [match.group(1) for match in LINK.finditer(prose)]


def broken_links(path: Path, markdown: str, repo: Path = REPO) -> list[str]:
    """What is wrong with the relative links of ``markdown`` (the text of ``path``)."""
    problems = []
    for target in links(markdown):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        name, _, anchor = target.partition("#")
        where = (path.parent / name).resolve() if name else path
        if not where.is_relative_to(repo.resolve()) or not where.exists():
            problems.append(f"{path.name}: {target}: no such file")
            continue
        if anchor and where.suffix == ".md":
            text = markdown if where == path else where.read_text(encoding="utf-8")
            if anchor not in anchors(text):
                problems.append(f"{path.name}: {target}: no such heading")
    return problems


# ---------------------------------------------------------------- commands


def command_lines(markdown: str) -> list[list[str]]:
    """Each simple command of the shell blocks, as words: comments, redirections and
    their targets dropped, lists and pipelines (``&&``, ``||``, ``;``, ``|``) split."""
    commands: list[list[str]] = []
    for block in SHELL_BLOCK.findall(markdown):
        for line in block.splitlines():
            lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|<>")
            lexer.whitespace_split = True
            lexer.commenters = "#"
            words: list[str] = []
            redirect = False
            for word in lexer:
                if word in {"&&", "||", ";", "|", "&"}:
                    if words:
                        commands.append(words)
                    words = []
                elif set(word) <= set("<>&") or re.fullmatch(r"\d*[<>]+&?\d*", word):
                    redirect = True
                elif redirect:
                    redirect = False
                else:
                    words.append(word)
            if words:
                commands.append(words)
    return commands


def missing_program(words: list[str], repo: Path = REPO) -> str | None:
    """Why ``words`` would not run from the repository's root, or None."""
    program, args = words[0], words[1:]
    if "/" in program:  # a path: .venv/bin/redactor, as the quick start makes it
        head, _, base = program.rpartition("/")
        if head.endswith(".venv/bin"):
            if base not in console_scripts() | {"pip", "pip3", "python", "python3"}:
                return f"{program}: no such program in a virtual environment"
            program = base
        elif not (repo / program).is_file():
            return f"{program}: no such file"
    for arg in args:  # a path into the repository's own folders must exist
        first = arg.split("/", 1)[0]
        if "/" in arg and first and (repo / first).is_dir() and not (repo / arg).exists():
            return f"{arg}: no such file"
    if program == "redactor":
        try:
            cli._parser().parse_args(args)
        except (RedactorError, SystemExit) as exc:
            return f"redactor {' '.join(args)}: {type(exc).__name__}"
        return None
    if program in console_scripts():
        return None
    if program in {"python", "python3"} and args[:1] == ["-m"]:
        module = args[1]
        found = importlib.util.find_spec(module) if module else None
        return None if found else f"python -m {module}: no such module"
    if program in {"python", "python3", "bash", "sh"} and args and not args[0].startswith("-"):
        return None if (repo / args[0]).is_file() else f"{args[0]}: no such script"
    if program in {"pip", "pip3"} and args[:1] == ["install"]:
        targets = [a for a in args[1:] if not a.startswith("-")]
        wrong = [t for t in targets if t != "." and not re.match(r"redactor-br(\[|$)", t)]
        return f"pip install {wrong[0]}: not this project" if wrong else None
    return None if program in EXTERNAL else f"{program}: not a known program"


# ---------------------------------------------------------------- the repository's documents


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_link_resolves(path: Path) -> None:
    assert broken_links(path, path.read_text(encoding="utf-8")) == []


def test_the_readme_opens_with_the_quick_start() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first_section = re.search(r"^## (.*)$", readme, re.M)
    assert first_section is not None and first_section.group(1) == "Quick start"
    assert command_lines(readme)[:4] == [
        ["python3", "-m", "venv", ".venv"], [".venv/bin/pip", "install", "-q", "."],
        [".venv/bin/redactor", "redact", "examples/sap-system.log"], ["bash", "tests/run.sh"]]


def test_every_readme_command_exists() -> None:
    commands = command_lines((REPO / "README.md").read_text(encoding="utf-8"))
    assert len(commands) >= 10
    assert [missing_program(words) for words in commands if missing_program(words)] == []


def test_every_docs_toml_block_loads(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    blocks = [block for path in (REPO / "docs").rglob("*.md")
              for block in re.findall(r"```toml\n(.*?)```", path.read_text(encoding="utf-8"),
                                      flags=re.S)]
    assert len(blocks) >= 2
    user_file = tmp_path / "xdg" / "redactor" / "config.toml"
    user_file.parent.mkdir(parents=True)
    for block in blocks:
        user_file.write_text(block, encoding="utf-8")
        assert load_settings(cwd=tmp_path, env=env).sources == (user_file,)


# ---------------------------------------------------------------- the checks can fail


def test_slugs_follow_github() -> None:
    assert slug("What differs from `redactor redact` by design") == (
        "what-differs-from-redactor-redact-by-design")
    assert slug("Installing next to Hermes 0.19.0") == "installing-next-to-hermes-0190"
    assert slug("The Claude Code plugin's hook call") == "the-claude-code-plugins-hook-call"
    assert slug("On Spark (issue 16)") == "on-spark-issue-16"
    assert anchors("# A\n## A\n```\n# B\n```\n") == {"a", "a-1"}


def test_a_broken_link_or_anchor_is_reported(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "page.md"
    page.write_text("# Page\n\n## Some heading\n", encoding="utf-8")
    readme = tmp_path / "README.md"
    text = ("# Title\n[ok](docs/page.md#some-heading) [ok](#title) [web](https://example.com)\n"
            "`[not a link](nowhere.md)`\n```\n[nor this](nowhere.md)\n```\n"
            "[gone](docs/missing.md) [bad anchor](docs/page.md#no-heading) [here](#nothing)\n"
            "[outside](../../etc/passwd)\n")
    readme.write_text(text, encoding="utf-8")
    assert broken_links(readme, text, repo=tmp_path) == [
        "README.md: docs/missing.md: no such file",
        "README.md: docs/page.md#no-heading: no such heading",
        "README.md: #nothing: no such heading",
        "README.md: ../../etc/passwd: no such file",
    ]


def test_a_missing_command_is_reported() -> None:
    block = ("```sh\n"
             "redactor redact app.log > out.log      # a comment\n"
             "redactor redcat app.log\n"
             "redactor install claude --proejct .\n"
             "redactor install vscode\n"
             "python3 -m venv .venv && .venv/bin/redactr redact examples/sap-system.log\n"
             "python -m benchmarks.nothing\n"
             "bash tests/nothing.sh | redactor scan -q\n"
             "redactor redact examples/missing.log\n"
             "pip install redactor\n"
             "redactr scan logs/\n"
             "```\n")
    commands = command_lines(block)
    assert commands[0] == ["redactor", "redact", "app.log"]
    assert [missing_program(words) is None for words in commands] == [
        True, False, False, False, True, False, False, False, True, False, False, False]
