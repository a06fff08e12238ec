"""`python -m papershelf` runs the papershelf command."""

import sys

from papershelf.cli.main import main

sys.exit(main())
