"""Text: sentences' words, tokens, numbers and their bounds, dates, stopwords, a question's language."""
