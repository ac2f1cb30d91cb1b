"""The hosts redactor guards, in one table that the server, the command line, the
installer and the adapters all read.

A host is its adapter module (``redactor.hosts.<name>``, whose ``ADAPTER`` answers its
hook events), the events it registers, each with the matcher of the group the installer
adds (None: the event takes no matcher), and the installer function in
:mod:`redactor.install`.  A new host is its adapter file, its row here and its
installer function.

Import-light on purpose (no import at all): the hook client loads it on every call to
check the host it is given.
"""


class Host:
    """One row of the catalogue."""

    __slots__ = ("events", "installer", "name")

    def __init__(self, name: str, events: "dict[str, str | None]", installer: str) -> None:
        self.name = name
        #: Event -> matcher of the group the installer adds (None: no matcher).
        self.events = events
        #: The function of redactor.install that registers the hooks.
        self.installer = installer

    @property
    def module(self) -> str:
        """The adapter's module, which holds ``ADAPTER``."""
        return "redactor.hosts." + self.name

    def __repr__(self) -> str:
        return "Host(" + repr(self.name) + ")"


CATALOGUE = (
    Host("claude", {"PreToolUse": "*", "PostToolUse": "*", "PostToolUseFailure": "*",
                    "UserPromptSubmit": None}, "install_claude"),
    # Codex reads a group without a matcher as every tool.
    Host("codex", {"PreToolUse": None, "PostToolUse": None, "UserPromptSubmit": None},
         "install_codex"),
    Host("gemini", {"BeforeAgent": None, "BeforeTool": "*", "AfterTool": "*",
                    "BeforeModel": None}, "install_gemini"),
    # The shell hooks; the plugin's callbacks are registered by redactor.hosts.hermes.
    Host("hermes", {"pre_llm_call": None, "pre_tool_call": None}, "install_hermes"),
)
#: The hosts a hook request may name, in the command line's order.
HOSTS = tuple(row.name for row in CATALOGUE)


def host(name: str) -> Host:
    """The catalogue's row for ``name``; ValueError for an unknown host."""
    for row in CATALOGUE:
        if row.name == name:
            return row
    raise ValueError("unknown host " + repr(name))


def events(name: str) -> "tuple[str, ...]":
    """The events a host's hooks are registered for, in the installer's order."""
    return tuple(host(name).events)


def snake_case(event: str) -> str:
    """An event name in snake case (``PreToolUse`` -> ``pre_tool_use``), as Codex
    writes it in its trust keys."""
    out = []
    for index, char in enumerate(event):
        if "A" <= char <= "Z":
            out.append("_" + char.lower() if index else char.lower())
        else:
            out.append(char)
    return "".join(out)
