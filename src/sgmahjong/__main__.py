"""``python -m sgmahjong``: the same command line as ``sgmahjong``."""

from .cli import main

if __name__ == "__main__":   # pytest's doctest collection imports this module too
    raise SystemExit(main())
