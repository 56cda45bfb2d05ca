"""Slash command names and descriptions in Chinese (simplified, traditional) and English.

discord.py asks a Translator for every ``locale_str`` when the command tree is synced; Discord
then shows each user the command in their client's language.
"""

from __future__ import annotations

import discord
from discord import app_commands

ZH_CN = discord.Locale.chinese
ZH_TW = discord.Locale.taiwan_chinese
EN_US = discord.Locale.american_english

# key (the English text in the code) → locale → text. Names: lowercase, no spaces, ≤ 32 characters.
TRANSLATIONS: dict[str, dict[discord.Locale, str]] = {
    "ask": {ZH_CN: "提问", ZH_TW: "提問", EN_US: "ask"},
    "Ask a question about the article (answers cite the paragraphs)": {
        ZH_CN: "就这篇文章提问（回答会注明出处段落）",
        ZH_TW: "就這篇文章提問（回答會註明出處段落）",
        EN_US: "Ask a question about the article (answers cite the paragraphs)",
    },
    "question": {ZH_CN: "问题", ZH_TW: "問題", EN_US: "question"},
    "Your question, in Chinese or English": {
        ZH_CN: "你的问题，中文或英文均可",
        ZH_TW: "你的問題，中文或英文皆可",
        EN_US: "Your question, in Chinese or English",
    },
    "ephemeral": {ZH_CN: "仅自己可见", ZH_TW: "僅自己可見", EN_US: "ephemeral"},
    "Only you see the answer": {
        ZH_CN: "只有你能看到回答",
        ZH_TW: "只有你能看到回答",
        EN_US: "Only you see the answer",
    },
    "article": {ZH_CN: "文章", ZH_TW: "文章", EN_US: "article"},
    "The article's title, author, date and outline": {
        ZH_CN: "文章的标题、作者、日期和提纲",
        ZH_TW: "文章的標題、作者、日期和提綱",
        EN_US: "The article's title, author, date and outline",
    },
    "help": {ZH_CN: "帮助", ZH_TW: "說明", EN_US: "help"},
    "How to use this bot": {
        ZH_CN: "如何使用这个机器人",
        ZH_TW: "如何使用這個機器人",
        EN_US: "How to use this bot",
    },
    "reindex": {ZH_CN: "重建索引", ZH_TW: "重建索引", EN_US: "reindex"},
    "Rebuild the article index and switch to it (admins)": {
        ZH_CN: "重建文章索引并切换过去（管理员）",
        ZH_TW: "重建文章索引並切換過去（管理員）",
        EN_US: "Rebuild the article index and switch to it (admins)",
    },
    "force": {ZH_CN: "强制", ZH_TW: "強制", EN_US: "force"},
    "Re-embed everything even if nothing changed": {
        ZH_CN: "即使没有变化也全部重新计算",
        ZH_TW: "即使沒有變化也全部重新計算",
        EN_US: "Re-embed everything even if nothing changed",
    },
}


def _(text: str) -> app_commands.locale_str:
    """Mark a command string for translation."""
    return app_commands.locale_str(text)


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return TRANSLATIONS.get(string.message, {}).get(locale)


def language_of_locale(locale: discord.Locale | None) -> str:
    """'zh' for Chinese clients, else 'en': the language of the bot's own messages."""
    return "zh" if locale is not None and locale.value.startswith("zh") else "en"
