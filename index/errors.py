"""The exceptions the CLI and the bot catch, in a module that imports nothing heavy.

``index.config``, ``index.corpus`` and ``index.store`` re-export them, so either import works
and names the same class; ``python -m index --help`` needs only this module."""

from __future__ import annotations


class SettingsError(ValueError):
    """An invalid setting: the message names the field."""


class CorpusError(ValueError):
    """A problem with the corpus the user can fix; the message is one line."""


class IndexLoadError(RuntimeError):
    """The index is missing, corrupt or built for another model; the message names the fix."""
