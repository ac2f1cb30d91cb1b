"""Where installations made before ``redactor/serve/`` run their hooks from.

Hooks registered by an earlier ``redactor install`` run this path, and Codex revokes
a hook's trust when its command changes; so this shim stays and does what
``redactor/serve/entry.py`` does.  ``redactor install`` moves hooks to the new path.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 3)[0])

from redactor.serve.client import main  # after the path is set

sys.exit(main())
