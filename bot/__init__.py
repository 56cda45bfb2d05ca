"""The Discord bot: answers questions about the article with paragraph-exact citations.

`python -m bot` runs it; see bot/README-section.md for set-up.
"""
