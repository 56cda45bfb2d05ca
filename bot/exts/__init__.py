"""The bot's features, one extension package each (loaded by bot.client)."""
