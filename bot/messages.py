"""The bot's own sentences, in Chinese and English. ``lang`` is 'zh' or anything else for English."""

from __future__ import annotations

import math
import time

from bot.config import BotSettings


def _zh(lang: str) -> bool:
    return lang == "zh"


def cooldown(lang: str, retry_after: float, count: int, seconds: float, now: float | None = None) -> str:
    wait = max(1, math.ceil(retry_after))
    at = int((now if now is not None else time.time()) + wait)
    window = _seconds(seconds)
    if _zh(lang):
        return f"你提问有点快了（每 {window} 最多 {count} 个问题）。请在 {wait} 秒后（<t:{at}:R>）再试。"
    return f"You're asking quickly (at most {count} questions per {window}). Try again in {wait} s (<t:{at}:R>)."


def _seconds(seconds: float) -> str:
    return f"{seconds:g} s"


def too_long(lang: str, length: int, limit: int) -> str:
    if _zh(lang):
        return f"问题太长了（{length} 个字符，上限 {limit}）。请缩短后再问。"
    return f"That question is too long ({length} characters; the limit is {limit}). Please shorten it."


def empty(lang: str, mention: str) -> str:
    if _zh(lang):
        return f"请在提及后面写上问题，例如：{mention} Composer 2.5 基于哪个模型？也可以用 /ask。"
    return f"Put your question after the mention, e.g. {mention} What is Composer 2.5 based on? Or use /ask."


def empty_question(lang: str) -> str:
    """/ask with a blank question (Discord lets a whitespace-only option through)."""
    if _zh(lang):
        return "问题是空的。请在「问题」选项里写上你的问题，例如：/提问 问题: Composer 2.5 基于哪个模型？"
    return "The question is empty. Write it in the question option, e.g. /ask question: What does Composer 2.5 cost?"


def unusable(lang: str, reason: str) -> str:
    if _zh(lang):
        return f"这个问题我没法回答：{reason}"
    return f"I can't answer that as asked: {reason}"


def dms_disabled(lang: str) -> str:
    if _zh(lang):
        return "我不在私信里回答问题，请在服务器频道里提问。"
    return "I don't answer in direct messages; please ask in a server channel."


def channel_not_allowed(lang: str, channel_ids: list[int]) -> str:
    where = " ".join(f"<#{c}>" for c in channel_ids[:10])
    if _zh(lang):
        return f"我不在这个频道回答问题。请到这些频道提问：{where}" if where else "我不在这个频道回答问题。"
    return f"I don't answer in this channel. Please ask in: {where}" if where else "I don't answer in this channel."


def went_wrong(lang: str) -> str:
    if _zh(lang):
        return "抱歉，出了点问题，没能回答。请稍后再试。"
    return "Sorry, something went wrong while answering. Please try again later."


def undelivered(lang: str) -> str:
    """Discord kept refusing the answer until the bot had to give up."""
    if _zh(lang):
        return "抱歉，回答没能送达（Discord 一直出错）。请再问一次。"
    return "Sorry, I couldn't deliver the answer (Discord kept failing). Please ask again."


def lost_at_restart(lang: str) -> str:
    """A question left in flight by a restart, too old to answer now."""
    if _zh(lang):
        return "抱歉，机器人重启了，没来得及回答你的问题。请再问一次。"
    return "Sorry, the bot restarted before it could answer your question. Please ask again."


def shutting_down(lang: str) -> str:
    if _zh(lang):
        return "机器人正在重启，请稍后再问。"
    return "The bot is restarting; please ask again in a moment."


def thanks(lang: str, vote: str) -> str:
    if _zh(lang):
        return "谢谢反馈！👍" if vote == "up" else "谢谢反馈，我们会改进。👎"
    return "Thanks for the feedback! 👍" if vote == "up" else "Thanks — we'll use this to improve. 👎"


def feedback_failed(lang: str) -> str:
    if _zh(lang):
        return "抱歉，反馈没能保存。"
    return "Sorry, your feedback couldn't be saved."


def not_admin(lang: str) -> str:
    if _zh(lang):
        return "只有拥有「管理服务器」权限的成员或配置里的管理员才能重建索引。"
    return "Only members with Manage Server, or the admins listed in the bot's settings, can rebuild the index."


def reindex_busy(lang: str) -> str:
    if _zh(lang):
        return "索引正在重建中，请等它完成。"
    return "A rebuild is already running; please wait for it to finish."


def reindex_done(lang: str, summary: str, version: str) -> str:
    if _zh(lang):
        return f"索引已重建并切换到 `{version}`。\n{summary}"
    return f"Rebuilt the index; now serving `{version}`.\n{summary}"


def reindex_unchanged(lang: str, summary: str, version: str) -> str:
    if _zh(lang):
        return f"文章没有变化，继续使用 `{version}`（force: True 可强制重建）。\n{summary}"
    return f"Nothing changed; still serving `{version}` (force: True rebuilds anyway).\n{summary}"


def cli_build_served(lang: str, version: str) -> str:
    if _zh(lang):
        return f"命令行构建的新索引已生效：`{version}`。"
    return f"A new index built from the command line is now served: `{version}`."


def reindex_rejected(lang: str, reason: str, version: str) -> str:
    if _zh(lang):
        return f"新索引有问题，已拒绝，继续使用 `{version}`。原因：{reason}"
    return f"The new index is broken and was rejected; still serving `{version}`. Reason: {reason}"


def reindex_failed(lang: str, reason: str, version: str) -> str:
    if _zh(lang):
        return f"重建失败，继续使用 `{version}`。原因：{reason}"
    return f"The rebuild failed; still serving `{version}`. Reason: {reason}"


def help_text(settings: BotSettings, mention: str) -> tuple[str, str]:
    """(Chinese, English) help."""
    limits_zh = (
        f"每人每 {_seconds(settings.cooldown_seconds)} 最多 {settings.cooldown_count} 个问题；"
        f"问题最长 {settings.max_question_chars} 个字符。"
    )
    limits_en = (
        f"At most {settings.cooldown_count} questions per {_seconds(settings.cooldown_seconds)} per person; "
        f"questions up to {settings.max_question_chars} characters."
    )
    auto = " ".join(f"<#{c}>" for c in settings.auto_answer_channel_ids[:10])
    zh = [
        "我只根据这篇文章回答问题，每个回答都标注出处段落 [1] [2]；文章没提到的，我会直说。",
        "• `/ask 问题`：提问（可选 ephemeral：只有你能看到回答）",
        f"• {mention} 问题：在消息里提及我并提问",
        "• 回复我的回答：追问，会沿用上一个问题的上下文（例如先问价格，再回复「那 Fast 版呢？」）",
        "• `/article`：文章的标题、作者、日期和提纲",
        "• `/reindex`：重建索引（需要「管理服务器」权限）",
        "• 👍 / 👎：告诉我们回答是否有用",
    ]
    en = [
        "I answer questions about this one article only, citing the paragraphs [1] [2]; "
        "if the article doesn't say, I say so.",
        "• `/ask question`: ask (optional ephemeral: only you see the answer)",
        f"• {mention} question: mention me with your question",
        "• Reply to one of my answers to ask a follow-up that keeps the context",
        "• `/article`: the article's title, author, date and outline",
        "• `/reindex`: rebuild the index (needs Manage Server)",
        "• 👍 / 👎: tell us whether an answer helped",
    ]
    if settings.threads:
        zh.append("• 每个回答会开一个子区，在子区里发消息就是追问")
        en.append("• Each answer opens a thread; messages in it are follow-ups")
    if auto:
        zh.append(f"• 在 {auto} 里发的每条消息都会被当作问题")
        en.append(f"• Every message in {auto} is taken as a question")
    zh.append(limits_zh)
    en.append(limits_en)
    return "\n".join(zh), "\n".join(en)
