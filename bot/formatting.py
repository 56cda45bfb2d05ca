"""Answers as Discord messages, within Discord's limits. Pure functions: no I/O.

Text is cut only at grapheme boundaries (never inside an emoji sequence, a flag or a letter with
its combining marks) and never inside a citation marker such as ``[12]``. Long texts are split
rather than lost: a description longer than one embed continues in the next embed, and embeds
that would exceed a message's 6000-character budget continue in the next message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import discord
import regex

from index import AskResult, Citation, SourceInfo
from index import message as phrase

# Discord's limits (characters), https://discord.com/developers/docs/resources/message#embed-object-embed-limits
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FIELDS_PER_EMBED = 25
FOOTER_LIMIT = 2048
EMBED_TOTAL_LIMIT = 6000  # all embeds of one message together
EMBEDS_PER_MESSAGE = 10
CONTENT_LIMIT = 2000

ELLIPSIS = "…"
EMPTY = "\u200b"  # Discord rejects empty field names and values
ANSWER_COLOR = 0x5865F2
ABSTAIN_COLOR = 0x99AAB5
INFO_COLOR = 0x57F287

_MARKER = re.compile(r"\[\d{1,5}\]")
# Direction controls (embeddings, overrides, isolates, marks): echoed, they reorder what follows
# them in the reader's client, so a title could be made to read as something else.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# Server invites: the bot must not repeat an advertisement under its own name.
_INVITE = re.compile(
    r"(?:https?://)?(?:www\.)?(?:discord(?:app)?\.com/invite|discord\.(?:gg|io|me|li)|dsc\.gg)/[\w-]+",
    re.IGNORECASE,
)
INVITE_PLACEHOLDER = "[invite]"
_GRAPHEME = regex.compile(r"\X")
# Preferred places to split, best first; the cut goes after the match.
_BREAKS = (
    re.compile(r"\n\s*\n"),
    re.compile(r"\n"),
    re.compile(r"[。！？!?]|[.;；](?=\s)"),
    re.compile(r"\s"),
)


# -- what the bot repeats of a user's text -------------------------------------------------
def echo_safe(text: str) -> str:
    """A user's question as the bot may repeat it (a title, a thread name): without direction
    controls and without invite links."""
    return _INVITE.sub(INVITE_PLACEHOLDER, _BIDI.sub("", text))


# -- cutting text safely -------------------------------------------------------------------
def _plain(ch: str) -> bool:
    """ASCII, CJK ideographs and punctuation, full-width forms: characters that neither extend the
    previous grapheme nor join the next one (the few combining marks in that range excluded)."""
    return (ch.isascii() or "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef") and not (
        "\u302a" <= ch <= "\u302f" or "\u3099" <= ch <= "\u309a"
    )


def _plain_boundary(before: str, after: str) -> bool:
    """Certainly a grapheme boundary between these two characters (CR LF is one grapheme)."""
    return _plain(before) and _plain(after) and not (before == "\r" and after == "\n")


def safe_cut(text: str, limit: int) -> int:
    """The largest index ``i <= limit`` where ``text[:i]`` ends on a grapheme boundary and not
    inside a citation marker. 0 if no such point exists."""
    if limit >= len(text):
        return len(text)
    if limit <= 0:
        return 0
    # Only the grapheme that straddles ``limit`` matters; start a little before it, at a point
    # that is certainly a boundary (after a plain ASCII character or a line break).
    start = max(0, limit - 64)
    while start > 0 and not _plain_boundary(text[start - 1], text[start]):
        start -= 1
    cut = start
    for match in _GRAPHEME.finditer(text, start):
        if match.end() > limit:
            break
        cut = match.end()
    for match in _MARKER.finditer(text, max(0, cut - 8), min(len(text), cut + 8)):
        if match.start() < cut < match.end():
            cut = match.start()
    return cut


def truncate(text: str, limit: int, ellipsis: str = ELLIPSIS) -> str:
    """``text`` if it fits, else its longest safe prefix that fits together with ``ellipsis``."""
    if len(text) <= limit:
        return text
    room = max(0, limit - len(ellipsis))
    cut = safe_cut(text, room)
    head = text[:cut].rstrip()
    return (head + ellipsis)[:limit] if head else text[:room] + ellipsis


def split_text(text: str, limit: int) -> list[str]:
    """Split into pieces of at most ``limit`` characters whose concatenation is ``text``.

    Prefers paragraph breaks, then line breaks, then sentence ends, then spaces (each only in the
    second half of a piece, so pieces don't get tiny), else any safe point."""
    if limit <= 0:
        raise ValueError("limit must be positive")
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        hard = safe_cut(rest, limit)
        cut = 0
        for pattern in _BREAKS:
            found = [m.end() for m in pattern.finditer(rest, limit // 2, hard)]
            found = [end for end in found if end <= hard and safe_cut(rest, end) == end]
            if found:
                cut = found[-1]
                break
        if cut == 0:
            cut = hard or limit  # a single grapheme longer than the limit: cut it, there is no choice
        pieces.append(rest[:cut])
        rest = rest[cut:]
    if rest or not pieces:
        pieces.append(rest)
    return pieces


# -- embeds ------------------------------------------------------------------------------
@dataclass
class EmbedSpec:
    """A message body before it is packed into Discord embeds."""

    description: str
    title: str | None = None
    fields: list[tuple[str, str]] = field(default_factory=list)
    footer: str | None = None
    color: int = ANSWER_COLOR


def embed_size(embed: discord.Embed) -> int:
    """What counts against the 6000 limit (title, description, field names and values, footer, author)."""
    return len(embed)


def pack_embeds(spec: EmbedSpec) -> list[list[discord.Embed]]:
    """The spec as one or more messages, each a list of embeds within every Discord limit.

    The title goes on the first embed, the footer on the last; fields follow the description."""
    title = truncate(spec.title.strip(), TITLE_LIMIT) if spec.title and spec.title.strip() else None
    footer = truncate(spec.footer.strip(), 300) if spec.footer and spec.footer.strip() else None
    budget = EMBED_TOTAL_LIMIT - (len(footer) if footer else 0)  # every message can hold the footer
    pieces = [p.strip() for p in split_text(spec.description, DESCRIPTION_LIMIT - 2)]
    pieces = [p for p in pieces if p] or [EMPTY]
    fields = [
        (
            truncate(name.strip(), FIELD_NAME_LIMIT) or EMPTY,
            truncate(value.strip(), FIELD_VALUE_LIMIT) or EMPTY,
        )
        for name, value in spec.fields
    ]

    messages: list[list[discord.Embed]] = []
    current: list[discord.Embed] = []
    used = 0

    def start_embed(size: int, **kwargs: str | None) -> discord.Embed:
        nonlocal current, used
        if current and (used + size > budget or len(current) >= EMBEDS_PER_MESSAGE):
            messages.append(current)
            current, used = [], 0
        embed = discord.Embed(color=spec.color, **kwargs)
        current.append(embed)
        used += size
        return embed

    embed = None
    for i, piece in enumerate(pieces):
        head = title if i == 0 else None
        embed = start_embed(len(piece) + (len(head) if head else 0), title=head, description=piece)
    assert embed is not None
    for name, value in fields:
        size = len(name) + len(value)
        if used + size > budget or len(embed.fields) >= FIELDS_PER_EMBED:
            embed = start_embed(size)  # counts the field: a new message if this one is full
        else:
            used += size
        embed.add_field(name=name, value=value, inline=False)
    if footer:
        current[-1].set_footer(text=footer)
    messages.append(current)
    return messages


# -- answers --------------------------------------------------------------------------------
def paragraphs_label(paragraphs: Sequence[int]) -> str:
    if not paragraphs:
        return ""
    ordered = sorted(set(paragraphs))
    if len(ordered) > 1 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"¶{ordered[0]}–{ordered[-1]}"
    return "¶" + ",".join(map(str, ordered))


def citation_name(citation: Citation) -> str:
    """``[n] section · ¶23`` within the field-name limit; only the section is ever shortened."""
    marker = f"[{citation.n}] "
    paragraphs = paragraphs_label(citation.paragraphs)
    suffix = f" · {paragraphs}" if paragraphs else ""
    section = truncate(citation.section or citation.doc_id, FIELD_NAME_LIMIT - len(marker) - len(suffix))
    return f"{marker}{section}{suffix}"


def citation_value(citation: Citation) -> str:
    return truncate(citation.quote.strip(), FIELD_VALUE_LIMIT) or EMPTY


def article_footer(sources: Sequence[SourceInfo], doc_ids: Sequence[str] = ()) -> str | None:
    """``title — author, date`` of the cited documents (all documents if none is cited)."""
    chosen = [s for s in sources if s.doc_id in doc_ids] or list(sources)
    parts = []
    for source in chosen:
        byline = ", ".join(x for x in (source.author, source.date) if x)
        parts.append(f"{source.title} — {byline}" if byline else source.title)
    return "; ".join(parts) or None


def nearest_sections_label(language: str) -> str:
    return phrase("answer.nearest_sections", language)


def answer_spec(result: AskResult) -> EmbedSpec:
    """The answer (with its [n] markers) as the description, one field per citation."""
    fields = [(citation_name(c), citation_value(c)) for c in result.citations]
    if result.abstained and result.nearest_sections and not all(s in result.answer for s in result.nearest_sections):
        fields.append((nearest_sections_label(result.language), "\n".join(f"• {s}" for s in result.nearest_sections)))
    return EmbedSpec(
        title=echo_safe(result.question),
        description=result.answer,
        fields=fields,
        footer=article_footer(result.sources, [c.doc_id for c in result.citations]),
        color=ABSTAIN_COLOR if result.abstained else ANSWER_COLOR,
    )


def preview_embed(question: str, text: str, language: str) -> discord.Embed:
    """A generated answer while it is being written: one embed, its end marked as unfinished."""
    footer = phrase("answer.writing", language)
    body = truncate(text.rstrip(), DESCRIPTION_LIMIT - 2) + " ▌"
    return pack_embeds(EmbedSpec(title=echo_safe(question), description=body, footer=footer))[0][0]


def answer_embeds(result: AskResult) -> list[list[discord.Embed]]:
    return pack_embeds(answer_spec(result))


def answer_text(result: AskResult) -> list[str]:
    """The answer as plain message contents (for channels where the bot can't embed), each at most
    2000 characters."""
    lines = [result.answer]
    if result.citations:
        lines.append("")
        for c in result.citations:
            lines.append(f"**{citation_name(c)}**")
            lines.append(f"> {truncate(' '.join(c.quote.split()), 600)}")
    elif result.abstained and result.nearest_sections and not all(s in result.answer for s in result.nearest_sections):
        lines.append(f"{nearest_sections_label(result.language)}: " + "；".join(result.nearest_sections))
    footer = article_footer(result.sources, [c.doc_id for c in result.citations])
    if footer:
        lines += ["", f"-# {footer}"]
    return split_content("\n".join(lines))


def split_content(text: str) -> list[str]:
    """Message contents of at most 2000 characters, none empty."""
    pieces = [p.strip() for p in split_text(text, CONTENT_LIMIT)]
    return [p for p in pieces if p] or [EMPTY]
