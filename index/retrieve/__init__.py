"""Retrieval: dense and BM25 rankings of one index version fused, and the parts a question points at."""
