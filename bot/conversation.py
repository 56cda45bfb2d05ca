"""Follow-up context: which question an answer message (or an answer thread) belongs to.

A reply to one of the bot's answers, or a message in a thread the bot opened for an answer, is a
follow-up: the engine gets the earlier question(s) as ``context`` (a Conversation) so that "那价格呢？" after a
question about Composer 2.5 means Composer 2.5's price. The map is bounded (least recently used
entries go first); the SQLite store keeps the same links across restarts.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

from index import Conversation

CONTEXT_QUESTIONS = 3  # a follow-up sees at most this many earlier questions
MAX_CONTEXT_CHARS = 1500  # the engine accepts up to 2000


@dataclass(frozen=True)
class Turn:
    """One answered question and the conversation it was answered in."""

    question: str
    context: Conversation = ()  # the earlier questions, oldest first
    answer_id: str | None = None

    def follow_up_context(self) -> Conversation:
        """The context for a question that follows this one: the last few questions, this one last."""
        return join_context(self.context, self.question)


def join_context(context: Conversation, question: str) -> Conversation:
    questions = [q for q in context if q.strip()] + [" ".join(question.split())]
    questions = questions[-CONTEXT_QUESTIONS:]
    while len(questions) > 1 and len("\n".join(questions)) > MAX_CONTEXT_CHARS:
        questions.pop(0)  # the oldest question matters least
    if len(questions[-1]) > MAX_CONTEXT_CHARS:
        questions[-1] = questions[-1][-MAX_CONTEXT_CHARS:]
    return tuple(questions)


# The answers table keeps a conversation as one TEXT column, a question a line (questions are
# single-line once cleaned): databases written before keep working.
def stored_context(context: Conversation) -> str | None:
    return "\n".join(context) or None


def context_from_store(text: str | None) -> Conversation:
    return tuple(q for q in (text or "").split("\n") if q.strip())


class ConversationMemory:
    """A bounded map from message or thread id to the turn it continues."""

    def __init__(self, maxsize: int = 5000) -> None:
        if maxsize < 1:
            raise ValueError("maxsize must be >= 1")
        self.maxsize = maxsize
        self._turns: OrderedDict[int, Turn] = OrderedDict()

    def remember(self, keys: Iterable[int], turn: Turn) -> None:
        for key in keys:
            self._turns[key] = turn
            self._turns.move_to_end(key)
        while len(self._turns) > self.maxsize:
            self._turns.popitem(last=False)

    def get(self, key: int) -> Turn | None:
        turn = self._turns.get(key)
        if turn is not None:
            self._turns.move_to_end(key)
        return turn

    def __contains__(self, key: int) -> bool:
        return key in self._turns

    def __len__(self) -> int:
        return len(self._turns)
