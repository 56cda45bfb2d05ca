"""The errors the CLI and the bot catch, and the exit code each one means: one place for both.

Imports nothing: ``python -m index --help`` needs only this module. The modules that raise
these (``index.config``, ``index.build.corpus``, ``index.build.versions``, ``index.build.loading``,
``index.text.language``, ``index.build.embedding``) re-export them, so either import names the same
class.

Exit codes (../shared/CONTRACTS.md): 0 ok, 1 failure, 2 usage or input error.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # as a shell reports a process stopped by SIGINT (128 + 2)


class InputError(ValueError):
    """Something the user gave is wrong and can fix: a one-line message, exit 2."""


class UsageError(InputError):
    """A bad command-line argument or combination of arguments."""


class SettingsError(InputError):
    """An invalid setting: the message names the field."""


class CorpusError(InputError):
    """A problem with the corpus the user can fix; the message is one line."""


class QuestionError(InputError):
    """A question that can't be answered as given; the message is one friendly line."""


class IndexLoadError(RuntimeError):
    """The index is missing, corrupt or built for another model; the message names the fix."""


class EmbedderError(ValueError):
    """The embedding model can't be loaded; the message says what to do."""


class GenerationError(RuntimeError):
    """The configured language model failed while working (a build-time job such as ``enrich``); what
    it finished is kept, and the message says so."""


def exit_code(error: BaseException) -> int:
    """The exit status a command ends with when ``error`` stops it."""
    if isinstance(error, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    if isinstance(error, InputError):
        return EXIT_USAGE
    return EXIT_FAILURE
