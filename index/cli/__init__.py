"""The command line: `python -m index` and the `article-index` script."""

from index.cli.parser import main

__all__ = ["main"]
