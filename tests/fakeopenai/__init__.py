"""A local OpenAI-compatible server with scripted replies, for tests (127.0.0.1 only)."""

from .server import HOST, FakeOpenAI, RecordedRequest, Reply

__all__ = ["HOST", "FakeOpenAI", "RecordedRequest", "Reply"]
