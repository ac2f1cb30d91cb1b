"""Configuration layers, validation errors and the project file's tighten-only rule."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from redactor.config import (
    DEFAULT_ENTITIES,
    OperatorSpec,
    Settings,
    config_files,
    config_notes,
    for_hooks,
    load_settings,
    own_account_names,
)
from redactor.errors import ConfigError


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}


def test_defaults_without_files(tmp_path: Path, env: dict[str, str]) -> None:
    settings = load_settings(cwd=tmp_path, env=env)
    assert settings == Settings()
    assert settings.entities == DEFAULT_ENTITIES
    assert settings.score_threshold == 0.4
    assert settings.operator_for("BR_CPF").render("BR_CPF") == "[CPF]"


def test_layers_user_env_project(tmp_path: Path, env: dict[str, str]) -> None:
    write(tmp_path / "xdg/redactor/config.toml", """
[detection]
score_threshold = 0.6
disabled_entities = ["IP_ADDRESS"]
[operators.BR_CPF]
type = "mask"
mask_char = "#"
""")
    explicit = write(tmp_path / "explicit.toml", '[messages]\nlanguage = "en"\n')
    project = tmp_path / "repo" / "sub"
    project.mkdir(parents=True)
    write(tmp_path / "repo/.redactor.toml", """
[detection]
entities = ["IP_ADDRESS"]
score_threshold = 0.5
[usernames]
known_users_file = "users.txt"
builtin_service_accounts = false
""")
    settings = load_settings(cwd=project, env={**env, "REDACTOR_CONFIG": str(explicit)})
    assert [p.name for p in settings.sources] == ["config.toml", "explicit.toml", ".redactor.toml"]
    assert settings.score_threshold == 0.5
    assert "IP_ADDRESS" in settings.entities  # the project added it back
    assert settings.operator_for("BR_CPF") == OperatorSpec(kind="mask", mask_char="#")
    assert settings.language == "en"
    assert settings.known_users_files == (tmp_path / "repo/users.txt",)
    assert settings.builtin_service_accounts is False


@pytest.mark.parametrize(("body", "key"), [
    ('[detection]\nscore_threshold = 0.9\n', "detection.score_threshold"),
    ('[detection]\ndisabled_entities = ["BR_CPF"]\n', "detection.disabled_entities"),
    ('[allowlist]\nvalues = ["529.982.247-25"]\n', "allowlist.values"),
    ('[usernames]\nservice_accounts = ["jsilva"]\n', "usernames.service_accounts"),
    ('[hash]\nkey_env = "HOME"\n', "hash.key_env"),
    ('[detection]\nspacy_model = "evil_model"\n', "detection.spacy_model"),
    ('[operators.BR_CPF]\ntype = "mask"\nmask_char = "#"\n', "operators.BR_CPF.mask_char"),
])
def test_project_file_cannot_loosen(tmp_path: Path, env: dict[str, str], body: str,
                                    key: str) -> None:
    write(tmp_path / ".redactor.toml", body)
    with pytest.raises(ConfigError) as info:
        load_settings(cwd=tmp_path, env=env)
    message = str(info.value)
    assert ".redactor.toml" in message and key in message
    assert "529.982.247-25" not in message


def test_project_cannot_turn_allowlist_back_on(tmp_path: Path, env: dict[str, str]) -> None:
    write(tmp_path / "xdg/redactor/config.toml", "[usernames]\nbuiltin_service_accounts = false\n")
    write(tmp_path / ".redactor.toml", "[usernames]\nbuiltin_service_accounts = true\n")
    with pytest.raises(ConfigError, match="builtin_service_accounts"):
        load_settings(cwd=tmp_path, env=env)


@pytest.mark.parametrize(("body", "expected"), [
    ("[detection\n", "invalid TOML"),
    ('[detection]\nscore_treshold = 0.5\n', "did you mean 'score_threshold'"),
    ('[detecton]\n', "did you mean 'detection'"),
    ('[detection]\nentities = ["BR_CFP"]\n', "did you mean 'BR_CPF'"),
    ('[detection]\nscore_threshold = "high"\n', "number between 0 and 1"),
    ('[detection]\nscore_threshold = 1.5\n', "number between 0 and 1"),
    ('[operators.BR_CPF]\ntype = "shred"\n', "unknown operator 'shred'"),
    ('[operators.BR_CPF]\nplaceholder = "$(rm -rf ~)"\n', "safe placeholder"),
    ('[operators.BR_CPF]\nplaceholder = "[{nome}]"\n', "unknown fields"),
    ('[operators.BR_CPF]\ntype = "hash"\nplaceholder = "[CPF]"\n', "no {hash} field"),
    ('[operators.BR_XYZ]\ntype = "mask"\n', "unknown entity"),
    ('[operators.BR_CPF]\nmask_char = "ab"\n', "one ASCII character"),
    ('[messages]\nlanguage = "fr"\n', "unknown language"),
    ('[usernames]\nbuiltin_service_accounts = "no"\n', "true or false"),
    ('detection = 3\n', "must be a table"),
])
def test_broken_config_is_a_loud_error(tmp_path: Path, env: dict[str, str], body: str,
                                       expected: str) -> None:
    config = write(tmp_path / "xdg/redactor/config.toml", body)
    with pytest.raises(ConfigError) as info:
        load_settings(cwd=tmp_path, env=env)
    assert str(config) in str(info.value)
    assert expected in str(info.value)
    assert info.value.exit_code == 2


def test_invalid_toml_names_the_line(tmp_path: Path, env: dict[str, str]) -> None:
    write(tmp_path / "xdg/redactor/config.toml", "[detection]\nscore_threshold = 0.4\n= nope\n")
    with pytest.raises(ConfigError, match="line 3"):
        load_settings(cwd=tmp_path, env=env)


def test_missing_redactor_config_file_is_an_error(tmp_path: Path, env: dict[str, str]) -> None:
    with pytest.raises(ConfigError, match="REDACTOR_CONFIG"):
        config_files(tmp_path, {**env, "REDACTOR_CONFIG": str(tmp_path / "missing.toml")})


def test_not_utf8_config_is_an_error(tmp_path: Path, env: dict[str, str]) -> None:
    path = tmp_path / "xdg/redactor/config.toml"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"[messages]\nlanguage = \"\xff\"\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_settings(cwd=tmp_path, env=env)


def test_placeholder_templates_render() -> None:
    assert OperatorSpec(placeholder="[{entity}]").render("BR_CNPJ") == "[BR_CNPJ]"
    assert OperatorSpec(kind="hash").render("USERNAME", "abc") == "[USERNAME:abc]"
    assert OperatorSpec().render("EMAIL_ADDRESS") == "[EMAIL]"


def test_readme_toml_examples_load(tmp_path: Path, env: dict[str, str]) -> None:
    import re

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", readme, flags=re.S)
    assert len(blocks) >= 2
    for block in blocks:
        path = write(tmp_path / "xdg/redactor/config.toml", block)
        settings = load_settings(cwd=tmp_path, env=env)
        assert settings.sources == (path,)


# ---------------------------------------------------------------- files the config names


def test_project_known_users_file_must_stay_in_the_project(tmp_path: Path,
                                                           env: dict[str, str]) -> None:
    project = tmp_path / "repo"
    write(project / "users.txt", "jsilva\n")
    write(project / ".redactor.toml", '[usernames]\nknown_users_file = "users.txt"\n')
    settings = load_settings(cwd=project, env=env)
    assert settings.known_users_files == ((project / "users.txt").resolve(),)
    for target in ("/etc/shadow", "../outside.txt", "link.txt"):
        write(tmp_path / "outside.txt", "x\n")
        link = project / "link.txt"
        if not link.is_symlink():
            link.symlink_to(tmp_path / "outside.txt")
        write(project / ".redactor.toml", f'[usernames]\nknown_users_file = "{target}"\n')
        with pytest.raises(ConfigError, match="outside the project"):
            load_settings(cwd=project, env=env)
    # The user's own file may name any file.
    write(tmp_path / "xdg/redactor/config.toml", '[usernames]\nknown_users_file = "/etc/hosts"\n')
    (project / ".redactor.toml").unlink()
    assert load_settings(cwd=project, env=env).known_users_files == (Path("/etc/hosts"),)


@pytest.mark.parametrize("kind", ["fifo", "device", "folder", "huge"])
def test_named_files_must_be_small_regular_files(tmp_path: Path, kind: str) -> None:
    import os
    import subprocess
    import sys

    from redactor.config import MAX_KNOWN_USERS_BYTES

    project = tmp_path / "repo"
    project.mkdir()
    target = project / "users"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    elif kind == "huge":
        with target.open("wb") as stream:
            stream.truncate(MAX_KNOWN_USERS_BYTES + 1)
    name = "/dev/zero" if kind == "device" else str(target)
    config = tmp_path / "user.toml"
    write(config, f'[usernames]\nknown_users_file = "{name}"\n')
    # In a process with a timeout: a FIFO used to block the reader forever.
    done = subprocess.run(
        [sys.executable, "-m", "redactor", "redact"], input=b"ok\n", capture_output=True,
        timeout=120, cwd=project, check=False,
        env={**os.environ, "REDACTOR_CONFIG": str(config), "XDG_CONFIG_HOME": str(tmp_path)})
    assert done.returncode == 2
    expected = b"larger than" if kind == "huge" else b"not a regular file"
    assert expected in done.stderr and b"Traceback" not in done.stderr


def test_a_fifo_as_config_file_is_refused(tmp_path: Path, env: dict[str, str]) -> None:
    import os

    from redactor.config import read_regular_file

    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match="not a regular file"):
        read_regular_file(fifo, 100, "configuration file", "fix it")


@pytest.mark.parametrize("value", [20.5, 30, 550])
def test_time_budget_stays_below_the_hosts_timeout(tmp_path: Path, env: dict[str, str],
                                                   value: float) -> None:
    write(tmp_path / "xdg/redactor/config.toml", f"[hooks]\ntime_budget_seconds = {value}\n")
    with pytest.raises(ConfigError, match=r"from 0\.5 to 20"):
        load_settings(cwd=tmp_path, env=env)
    write(tmp_path / "xdg/redactor/config.toml", "[hooks]\ntime_budget_seconds = 20\n")
    assert load_settings(cwd=tmp_path, env=env).hook_time_budget == 20.0


def test_a_project_file_of_another_user_is_refused(tmp_path: Path, env: dict[str, str]) -> None:
    import os

    if os.getuid() != 0:
        pytest.skip("needs root to give the file to another user")
    project = tmp_path / "shared"
    write(project / ".redactor.toml", "[detection]\nscore_threshold = 0.3\n")
    os.chown(project / ".redactor.toml", 4242, 4242)
    with pytest.raises(ConfigError, match="belongs to another user"):
        load_settings(cwd=project / "sub", env=env)
    os.chown(project / ".redactor.toml", os.getuid(), os.getgid())
    assert load_settings(cwd=project, env=env).score_threshold == 0.3


def test_input_entities_default_and_project_files_may_only_add(tmp_path: Path) -> None:
    assert "BR_ENDERECO" not in Settings().input_entities
    assert "BR_CPF" in Settings().input_entities
    user = tmp_path / "user.toml"
    user.write_text('[hooks]\ninput_entities = ["BR_CPF"]\n')
    project = tmp_path / "project.toml"
    project.write_text('[hooks]\ninput_entities = ["BR_ENDERECO"]\n')
    settings = load_settings(env={}, files=[(user, "user")])
    assert settings.input_entities == ("BR_CPF",)
    merged = load_settings(env={}, files=[(user, "user"), (project, "project")])
    assert merged.input_entities == ("BR_CPF", "BR_ENDERECO")


def test_own_account_names_are_the_login_and_the_home_folder() -> None:
    import pwd

    names = own_account_names({"HOME": "/home/tcarvalho"})
    assert names[0] == pwd.getpwuid(os.getuid()).pw_name
    assert "tcarvalho" in names
    assert own_account_names({"HOME": "/"}) == (pwd.getpwuid(os.getuid()).pw_name,)


def test_hooks_keep_the_own_account_unless_told_to_redact(tmp_path: Path,
                                                           env: dict[str, str]) -> None:
    home = {"HOME": "/home/tcarvalho"}
    kept = for_hooks(Settings(), home)
    assert "tcarvalho" in kept.service_accounts
    assert for_hooks(Settings(keep_own_account=False), home) == Settings(keep_own_account=False)
    write(tmp_path / "xdg/redactor/config.toml", '[hooks]\nown_account = "redact"\n')
    assert load_settings(cwd=tmp_path, env=env).keep_own_account is False
    # A project may choose to redact it, never to keep what the user redacts.
    write(tmp_path / ".redactor.toml", '[hooks]\nown_account = "keep"\n')
    with pytest.raises(ConfigError, match="own_account"):
        load_settings(cwd=tmp_path, env=env)
    write(tmp_path / ".redactor.toml", '[hooks]\nown_account = "hide"\n')
    with pytest.raises(ConfigError, match="keep"):
        load_settings(cwd=tmp_path, env=env)


# ------------------------------------------- a user file inside the project folder

LOOSE = '[detection]\nentities = []\n[hooks]\nprompt_block_entities = []\n'


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cloned repository (a .git folder) under a home folder of its own."""
    from redactor import config

    home = tmp_path / "home"
    (home / "src" / "repo" / ".git").mkdir(parents=True)
    monkeypatch.setattr(config, "account_home", lambda: home.resolve())
    return home / "src" / "repo"


@pytest.mark.parametrize("how", ["REDACTOR_CONFIG", "XDG_CONFIG_HOME", "HOME"])
def test_a_user_file_named_inside_the_project_is_read_as_a_project_file(
        repo: Path, how: str) -> None:
    # A host may set these variables from the project's own settings ("env", ".env"):
    # the file they name, inside the repository, may only tighten.
    if how == "REDACTOR_CONFIG":
        env = {"HOME": str(repo.parent), "REDACTOR_CONFIG": str(write(repo / "r.toml", LOOSE))}
    elif how == "XDG_CONFIG_HOME":
        write(repo / "cfg/redactor/config.toml", LOOSE)
        env = {"HOME": str(repo.parent), "XDG_CONFIG_HOME": str(repo / "cfg")}
    else:  # $HOME pointed into the project: the home folder comes from the user database
        write(repo / ".config/redactor/config.toml", LOOSE)
        env = {"HOME": str(repo)}
    settings = load_settings(cwd=repo, env=env)
    assert settings.entities == DEFAULT_ENTITIES
    assert settings.prompt_block_entities == Settings().prompt_block_entities
    [(path, trust)] = config_files(repo, env)
    assert trust == "project"
    [note] = config_notes(repo, env)
    assert note == (f"{path} ({'REDACTOR_CONFIG' if how == 'REDACTOR_CONFIG' else 'the user file'})"
                    f" is inside the project folder {repo.resolve()}: read as a project file "
                    "(tighten-only)")


@pytest.mark.parametrize("where", ["subfolder with a marker", "outside every project"])
def test_a_repositorys_file_is_a_project_file_wherever_the_caller_works(
        repo: Path, tmp_path: Path, where: str) -> None:
    """The file is judged by where it lies, not only by the caller's project: a
    subfolder with a marker of its own (a monorepo's service, ``.claude`` or ``.env``),
    or a caller outside every project, does not make a repository's file the user's."""
    write(repo / "cfg/redactor/config.toml", LOOSE)
    if where == "subfolder with a marker":
        cwd = repo / "services" / "api"
        (cwd / ".claude").mkdir(parents=True)
    else:
        cwd = tmp_path / "elsewhere"
        cwd.mkdir()
    named = str(repo / "cfg/redactor/config.toml")
    for env in ({"HOME": str(repo.parent), "XDG_CONFIG_HOME": str(repo / "cfg")},
                {"HOME": str(repo.parent), "REDACTOR_CONFIG": named}):
        settings = load_settings(cwd=cwd, env=env)
        assert settings.entities == DEFAULT_ENTITIES
        assert settings.prompt_block_entities == Settings().prompt_block_entities
        [(_, trust)] = config_files(cwd, env)
        assert trust == "project"
        [note] = config_notes(cwd, env)
        assert f"inside the project folder {repo.resolve()}" in note


def test_a_loosening_key_in_a_user_file_inside_the_project_is_an_error(repo: Path) -> None:
    named = write(repo / "nested" / "r.toml", '[detection]\ndisabled_entities = ["BR_CPF"]\n')
    (repo / "sub").mkdir()
    with pytest.raises(ConfigError) as caught:
        load_settings(cwd=repo / "sub", env={"REDACTOR_CONFIG": str(named)})
    message = str(caught.value)
    assert "detection.disabled_entities" in message and "cannot be set by a project file" in message
    assert f"inside the project folder {repo.resolve()}" in message
    # Out of the repository, the same file is the user's own.
    moved = write(repo.parent / "r.toml", named.read_text())
    env = {"REDACTOR_CONFIG": str(moved)}
    assert "BR_CPF" not in load_settings(cwd=repo / "sub", env=env).entities
    assert config_notes(repo / "sub", env) == []


def test_where_the_file_really_lies_decides_through_links(repo: Path) -> None:
    inside = write(repo / "r.toml", LOOSE)
    link = repo.parent / "looks-like-mine.toml"
    link.symlink_to(inside)
    assert config_files(repo, {"REDACTOR_CONFIG": str(link)}) == [(link, "project")]
    # A link in the repository to a file of the user's outside it reads the user's file.
    mine = write(repo.parent / "mine.toml", LOOSE)
    (repo / "to-mine.toml").symlink_to(mine)
    named = repo / "to-mine.toml"
    assert config_files(repo, {"REDACTOR_CONFIG": str(named)}) == [(named, "user")]


def test_the_home_folder_and_above_are_never_a_project(repo: Path) -> None:
    home = repo.parent.parent
    (home / ".git").mkdir()  # a home kept in git for its dotfiles
    (home / ".claude").mkdir()
    mine = write(home / "redactor.toml", LOOSE)
    for cwd in (home, home / "src"):
        assert config_files(cwd, {"REDACTOR_CONFIG": str(mine)}) == [(mine, "user")]
    # The account's own ~/.config/redactor/config.toml stays the user's even when
    # ~/.config is a repository the agent works in.
    (home / ".config" / ".git").mkdir(parents=True)
    own = write(home / ".config/redactor/config.toml", LOOSE)
    (home / ".config" / "nvim").mkdir()
    env = {"HOME": str(home)}
    assert config_files(home / ".config" / "nvim", env) == [(own, "user")]
    assert load_settings(cwd=home / ".config" / "nvim", env=env).entities == ()
    # Without any marker, a folder is no project: nothing is read at a lower trust.
    (home / ".git").rmdir()
    (home / ".claude").rmdir()
    plain = home / "plain"
    write(plain / "r.toml", LOOSE)
    assert config_files(plain, {"REDACTOR_CONFIG": str(plain / "r.toml")}) \
        == [(plain / "r.toml", "user")]


def test_a_relative_redactor_config_is_the_callers(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Read from the working directory the settings are for (a hook event's, the hook
    # client's), not from the folder this process started in (a warm server's).
    server, caller = tmp_path / "server", tmp_path / "caller"
    write(server / "strict.toml", '[operators.BR_CPF]\nplaceholder = "[SERVER]"\n')
    write(caller / "strict.toml", '[operators.BR_CPF]\nplaceholder = "[CALLER]"\n')
    monkeypatch.chdir(server)
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "none"),
           "REDACTOR_CONFIG": "strict.toml"}
    settings = load_settings(cwd=caller, env=env)
    assert settings.operator_for("BR_CPF").render("BR_CPF") == "[CALLER]"
    (caller / "strict.toml").unlink()
    with pytest.raises(ConfigError, match=f"names {caller / 'strict.toml'}, which is not"):
        load_settings(cwd=caller, env=env)
