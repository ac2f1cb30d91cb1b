"""The local model gateway: ``redactor gateway``.

:mod:`~redactor.gateway.wire` redacts one Anthropic Messages request (no HTTP stack),
:mod:`~redactor.gateway.app` serves it with aiohttp (the ``gateway`` extra),
:mod:`~redactor.gateway.identity` holds the install's token and the hello proof, and
:mod:`~redactor.gateway.control` starts and stops the service.  Nothing here is
imported on the hook path: the warm engine imports ``identity`` only for a prompt.
"""
