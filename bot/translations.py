"""Slash command names and descriptions in Chinese (simplified, traditional) and English.

discord.py asks a Translator for every ``locale_str`` when the command tree is synced; Discord
then shows each user the command in their client's language. The texts are the catalogue's
``command.*`` entries (index/answer/messages.py); the English one is the command's default.
"""

from __future__ import annotations

import discord
from discord import app_commands

from index import message as phrase

# The client locales the commands are translated for, and the catalogue language of each.
LANGUAGES: dict[discord.Locale, str] = {
    discord.Locale.chinese: "zh",
    discord.Locale.taiwan_chinese: "zh-TW",
    discord.Locale.american_english: "en",
}


def _(key: str) -> app_commands.locale_str:
    """A command string by its catalogue key: the English text, marked for translation."""
    return app_commands.locale_str(phrase(key, "en"), key=key)


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        language = LANGUAGES.get(locale)
        return phrase(key, language) if key is not None and language is not None else None


def language_of_locale(locale: discord.Locale | None) -> str:
    """'zh' for Chinese clients, else 'en': the language of the bot's own messages."""
    return "zh" if locale is not None and locale.value.startswith("zh") else "en"
