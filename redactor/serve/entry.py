"""The file a host runs for every hook call: ``python -I -S .../redactor/serve/entry.py HOST``.

Kept to a few lines because a script is compiled on every run, while the client it
loads comes from its cached bytecode.  ``-I -S`` leave ``site`` and the environment
out of start-up; this installation's folder is put on the path by hand.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 3)[0])

from redactor.serve.client import main  # after the path is set

sys.exit(main())
