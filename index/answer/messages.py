"""Every sentence a user reads, in Chinese and English: one catalogue, one lookup.

``MESSAGES`` maps a key to its text per language; a text is a ``str.format`` template, and every
language of a key names the same fields (tests/index/test_messages.py). Each key has ``zh`` and
``en``; the slash commands' names and descriptions, which Discord shows in the client's language,
also have ``zh-TW``. ``message(key, language, **fields)`` falls back from a regional language to
its base (``zh-TW`` → ``zh``) and from a language without texts (``ja``, ``ko``) to ``en``.

Keys are grouped by where the text is shown: ``command.*`` (the slash commands), ``ask.*``,
``answer.*`` and ``article.*`` (answers and /article), ``feedback.*``, ``admin.*``, ``help.*``.
Data only: this module imports nothing, so the bot and the index can both use it.
"""

from __future__ import annotations

Texts = dict[str, str]

MESSAGES: dict[str, Texts] = {
    # -- the slash commands: names (lowercase, no spaces, ≤ 32 characters) and descriptions ------
    "command.ask": {"zh": "提问", "zh-TW": "提問", "en": "ask"},
    "command.ask.description": {
        "zh": "就这篇文章提问（回答会注明出处段落）",
        "zh-TW": "就這篇文章提問（回答會註明出處段落）",
        "en": "Ask a question about the article (answers cite the paragraphs)",
    },
    "command.ask.question": {"zh": "问题", "zh-TW": "問題", "en": "question"},
    "command.ask.question.description": {
        "zh": "你的问题，中文或英文均可",
        "zh-TW": "你的問題，中文或英文皆可",
        "en": "Your question, in Chinese or English",
    },
    "command.ask.ephemeral": {"zh": "仅自己可见", "zh-TW": "僅自己可見", "en": "ephemeral"},
    "command.ask.ephemeral.description": {
        "zh": "只有你能看到回答",
        "zh-TW": "只有你能看到回答",
        "en": "Only you see the answer",
    },
    "command.article": {"zh": "文章", "zh-TW": "文章", "en": "article"},
    "command.article.description": {
        "zh": "文章的标题、作者、日期和提纲",
        "zh-TW": "文章的標題、作者、日期和提綱",
        "en": "The article's title, author, date and outline",
    },
    "command.help": {"zh": "帮助", "zh-TW": "說明", "en": "help"},
    "command.help.description": {
        "zh": "如何使用这个机器人",
        "zh-TW": "如何使用這個機器人",
        "en": "How to use this bot",
    },
    "command.reindex": {"zh": "重建索引", "zh-TW": "重建索引", "en": "reindex"},
    "command.reindex.description": {
        "zh": "重建文章索引并切换过去（管理员）",
        "zh-TW": "重建文章索引並切換過去（管理員）",
        "en": "Rebuild the article index and switch to it (admins)",
    },
    "command.reindex.force": {"zh": "强制", "zh-TW": "強制", "en": "force"},
    "command.reindex.force.description": {
        "zh": "即使没有变化也全部重新计算",
        "zh-TW": "即使沒有變化也全部重新計算",
        "en": "Re-embed everything even if nothing changed",
    },
    # -- asking: refusals and failures -------------------------------------------------------
    "ask.cooldown": {
        "zh": "你提问有点快了（每 {window} 最多 {count} 个问题）。请在 {wait} 秒后（<t:{at}:R>）再试。",
        "en": "You're asking quickly (at most {count} questions per {window}). Try again in {wait} s (<t:{at}:R>).",
    },
    "ask.too_long": {
        "zh": "问题太长了（{length} 个字符，上限 {limit}）。请缩短后再问。",
        "en": "That question is too long ({length} characters; the limit is {limit}). Please shorten it.",
    },
    "ask.empty": {
        "zh": "请在提及后面写上问题，例如：{mention} Composer 2.5 基于哪个模型？也可以用 /ask。",
        "en": "Put your question after the mention, e.g. {mention} What is Composer 2.5 based on? Or use /ask.",
    },
    "ask.empty_question": {  # /ask with a blank question (Discord lets a whitespace-only option through)
        "zh": "问题是空的。请在「问题」选项里写上你的问题，例如：/提问 问题: Composer 2.5 基于哪个模型？",
        "en": "The question is empty. Write it in the question option, "
        "e.g. /ask question: What does Composer 2.5 cost?",
    },
    "ask.unusable": {"zh": "这个问题我没法回答：{reason}", "en": "I can't answer that as asked: {reason}"},
    "ask.dms_disabled": {
        "zh": "我不在私信里回答问题，请在服务器频道里提问。",
        "en": "I don't answer in direct messages; please ask in a server channel.",
    },
    "ask.channel_not_allowed": {
        "zh": "我不在这个频道回答问题。请到这些频道提问：{channels}",
        "en": "I don't answer in this channel. Please ask in: {channels}",
    },
    "ask.channel_not_allowed.nowhere": {"zh": "我不在这个频道回答问题。", "en": "I don't answer in this channel."},
    "went_wrong": {
        "zh": "抱歉，出了点问题，没能回答。请稍后再试。",
        "en": "Sorry, something went wrong while answering. Please try again later.",
    },
    "ask.undelivered": {  # Discord kept refusing the answer until the bot had to give up
        "zh": "抱歉，回答没能送达（Discord 一直出错）。请再问一次。",
        "en": "Sorry, I couldn't deliver the answer (Discord kept failing). Please ask again.",
    },
    "ask.lost_at_restart": {  # a question left in flight by a restart, too old to answer now
        "zh": "抱歉，机器人重启了，没来得及回答你的问题。请再问一次。",
        "en": "Sorry, the bot restarted before it could answer your question. Please ask again.",
    },
    "shutting_down": {
        "zh": "机器人正在重启，请稍后再问。",
        "en": "The bot is restarting; please ask again in a moment.",
    },
    # -- answers and /article ------------------------------------------------------------------
    "answer.nearest_sections": {"zh": "最接近的章节", "en": "Nearest sections"},
    "answer.writing": {"zh": "正在生成回答…", "en": "Writing the answer…"},
    "article.sources": {"zh": "出处", "en": "Sources"},
    "article.author": {"zh": "作者", "en": "Author"},
    "article.date": {"zh": "日期", "en": "Date"},
    # -- feedback ------------------------------------------------------------------------------
    "feedback.thanks.up": {"zh": "谢谢反馈！👍", "en": "Thanks for the feedback! 👍"},
    "feedback.thanks.down": {"zh": "谢谢反馈，我们会改进。👎", "en": "Thanks — we'll use this to improve. 👎"},
    "feedback.failed": {"zh": "抱歉，反馈没能保存。", "en": "Sorry, your feedback couldn't be saved."},
    # -- /reindex and index news -----------------------------------------------------------------
    "admin.not_admin": {
        "zh": "只有拥有「管理服务器」权限的成员或配置里的管理员才能重建索引。",
        "en": "Only members with Manage Server, or the admins listed in the bot's settings, can rebuild the index.",
    },
    "admin.busy": {
        "zh": "索引正在重建中，请等它完成。",
        "en": "A rebuild is already running; please wait for it to finish.",
    },
    "admin.rebuilt": {
        "zh": "索引已重建并切换到 `{version}`。\n{summary}",
        "en": "Rebuilt the index; now serving `{version}`.\n{summary}",
    },
    "admin.unchanged": {
        "zh": "文章没有变化，继续使用 `{version}`（force: True 可强制重建）。\n{summary}",
        "en": "Nothing changed; still serving `{version}` (force: True rebuilds anyway).\n{summary}",
    },
    "admin.cli_build_served": {
        "zh": "命令行构建的新索引已生效：`{version}`。",
        "en": "A new index built from the command line is now served: `{version}`.",
    },
    "admin.rejected": {
        "zh": "新索引有问题，已拒绝，继续使用 `{version}`。原因：{reason}",
        "en": "The new index is broken and was rejected; still serving `{version}`. Reason: {reason}",
    },
    "admin.failed": {
        "zh": "重建失败，继续使用 `{version}`。原因：{reason}",
        "en": "The rebuild failed; still serving `{version}`. Reason: {reason}",
    },
    # -- /help: its lines, in order (help.threads and help.auto only when they apply) ------------
    "help.bot": {"zh": "问答机器人", "en": "Q&A bot"},
    "help.title": {"zh": "《{title}》问答机器人", "en": "Q&A bot on “{title}”"},
    "help.intro": {
        "zh": "我只根据这篇文章回答问题，每个回答都标注出处段落 [1] [2]；"
        "文章没提到的，我会直说，没把握的回答也会注明。",
        "en": "I answer questions about this one article only, citing the paragraphs [1] [2]; "
        "if the article doesn't say, I say so, and I mark an answer I'm unsure of.",
    },
    "help.ask": {
        "zh": "• `/ask 问题`：提问（可选 ephemeral：只有你能看到回答）",
        "en": "• `/ask question`: ask (optional ephemeral: only you see the answer)",
    },
    "help.mention": {
        "zh": "• {mention} 问题：在消息里提及我并提问",
        "en": "• {mention} question: mention me with your question",
    },
    "help.reply": {
        "zh": "• 回复我的回答：追问，会沿用上一个问题的上下文（例如先问价格，再回复「那 Fast 版呢？」）",
        "en": "• Reply to one of my answers to ask a follow-up that keeps the context",
    },
    "help.article": {
        "zh": "• `/article`：文章的标题、作者、日期和提纲",
        "en": "• `/article`: the article's title, author, date and outline",
    },
    "help.reindex": {
        "zh": "• `/reindex`：重建索引（需要「管理服务器」权限）",
        "en": "• `/reindex`: rebuild the index (needs Manage Server)",
    },
    "help.feedback": {"zh": "• 👍 / 👎：告诉我们回答是否有用", "en": "• 👍 / 👎: tell us whether an answer helped"},
    "help.threads": {
        "zh": "• 每个回答会开一个子区，在子区里发消息就是追问",
        "en": "• Each answer opens a thread; messages in it are follow-ups",
    },
    "help.auto": {
        "zh": "• 在 {channels} 里发的每条消息都会被当作问题",
        "en": "• Every message in {channels} is taken as a question",
    },
    "help.limits": {
        "zh": "每人每 {window} 最多 {count} 个问题；问题最长 {chars} 个字符。",
        "en": "At most {count} questions per {window} per person; questions up to {chars} characters.",
    },
    # -- what the index says in an answer (index/answer/, index/answer/smalltalk.py) ----------------
    "answer.says": {"zh": "根据文章：{body} {markers}", "en": "The article says: “{body}” {markers}"},
    "answer.says.translated": {
        "zh": "{opening}\n\n原文：“{body}” {markers}",
        "en": "{opening}\n\nTranslated from the Chinese original: “{body}” {markers}",
    },
    "answer.says.english": {
        "zh": "{opening}\n\n原文：“{body}” {markers}",
        "en": "{opening}\n\n(Glossed word for word where no verified translation was made.) "
        "The Chinese original: “{body}” {markers}",
    },
    "answer.decline": {
        "zh": "文章没有提到这个问题，我无法从中找到答案。",
        "en": "The article doesn't say — I couldn't find an answer to that in it.",
    },
    "answer.unsure": {
        "zh": "（不一定是答案：文章可能没有直接回答这个问题。）",
        "en": "(This may not be the answer: the article may not address the question directly.)",
    },
    "answer.decline.unmentioned": {"zh": "（文章里没有出现 {names}。）", "en": " (No passage mentions {names}.)"},
    "answer.decline.nearest": {"zh": "最接近的章节：{sections}", "en": " Nearest sections: {sections}"},
    "answer.meta": {
        "zh": "这篇文章是《{title}》{by}，{date}。{marker}",
        "en": "The article is “{title}”{by}, dated {date}.{marker}",
    },
    "answer.meta.by": {"zh": "，作者 {author}", "en": " by {author}"},
    "answer.meta.translated": {
        "zh": "这篇文章是《{title}》（原题《{original}》）{by}，{date}。{marker}",
        "en": "The article is “{title}” (in the Chinese original, “{original}”){by}, dated {date}.{marker}",
    },
    "answer.outline": {"zh": "这篇文章的要点：", "en": "The article's outline (quoted from the Chinese original):"},
    "answer.outline.translated": {
        "zh": "这篇文章的要点（译自原文）：",
        "en": "The article's outline, translated from the Chinese original (the sources quote it):",
    },
    "smalltalk.greeting": {
        "zh": "你好！我回答关于{about}的问题，并注明出处。试试问：“这篇文章讲了什么？”",
        "en": "Hi! I answer questions about {about}, citing where the answer comes from. Try: “summarize the article”.",
    },
    "smalltalk.thanks": {
        "zh": "不客气！我回答关于{about}的问题，并注明出处。试试问：“这篇文章讲了什么？”",
        "en": "You're welcome! I answer questions about {about}, citing where the answer comes from. "
        "Try: “summarize the article”.",
    },
    "smalltalk.ack": {
        "zh": "我回答关于{about}的问题，并注明出处。试试问：“这篇文章讲了什么？”",
        "en": "I answer questions about {about}, citing where the answer comes from. Try: “summarize the article”.",
    },
    "smalltalk.about": {"zh": "《{title}》", "en": "“{title}”"},
    "smalltalk.about.none": {"zh": "这篇文章", "en": "the article"},
    "list.separator": {"zh": "、", "en": ", "},
}

LANGUAGES = ("zh", "en")  # every key has these


def message(key: str, language: str, /, **fields: object) -> str:
    """The text of ``key`` in ``language`` (or its fallback) with ``fields`` filled in.
    KeyError for an unknown key or a field the text names but wasn't given."""
    texts = MESSAGES[key]
    text = texts.get(language) or texts.get(language.split("-")[0]) or texts["en"]
    return text.format(**fields)
