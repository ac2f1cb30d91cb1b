"""``python -m redactor``: the same as the ``redactor`` command."""

import sys

from redactor.cli import main

sys.exit(main())
