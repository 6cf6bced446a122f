"""`python -m attention_lessons LESSON [--json]`: a lesson's numbers in the terminal."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
