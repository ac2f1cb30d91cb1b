"""The warm engine: its server and worker pool, the light client hooks run, and their
wire protocol (:mod:`~redactor.serve.protocol`, which both sides import; the client
and the server never import each other)."""
