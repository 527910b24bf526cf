"""``python -m feedsift``: the same as the ``feedsift`` command."""

import sys

from feedsift.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
