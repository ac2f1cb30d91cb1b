"""Host adapters: Claude Code, Codex CLI, Gemini CLI and Hermes Agent, over one hook core.

:mod:`~redactor.hosts.catalogue` lists them (adapter module, events, installer) for the
server, the command line and the installer; :mod:`~redactor.hosts.core` holds what
every adapter shares.  A new host is its adapter file, its catalogue row and its
installer function in :mod:`redactor.install`.

Kept empty of imports: the light hook client imports the catalogue through it.
"""
