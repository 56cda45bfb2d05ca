"""The package version: one place, read by pyproject.toml and written into every index manifest."""

__version__ = "0.1.0"
