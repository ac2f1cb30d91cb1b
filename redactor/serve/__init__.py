"""The warm engine: its server and worker pool, the light client hooks run, their wire
protocol (:mod:`~redactor.serve.protocol`, which both sides import; the client and the
server never import each other, and the worker imports only the protocol) and the
timeout chain every step of a hook call keeps (:mod:`~redactor.serve.timeouts`)."""
