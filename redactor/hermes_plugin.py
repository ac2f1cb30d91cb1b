"""The Hermes plugin's entry point (``hermes_agent.plugins``: ``redactor``).

The plugin lives in :mod:`redactor.hosts.hermes`; this module keeps the entry point's
name, so installations registered under it go on working.
"""

from redactor.hosts.hermes import HermesPlugin, block_supported, modify_supported, register

__all__ = ["HermesPlugin", "block_supported", "modify_supported", "register"]
