"""`python -m tui` runs the papershelf command."""

import sys

from tui.cli import main

sys.exit(main())
