"""Index, retrieval and answers for the article bot.

Loading the corpus, chunking, embedding, the FAISS store, hybrid retrieval, extractive
answers and the `python -m index` CLI. The Discord bot (`bot`) imports this package;
this package never imports `bot`.
"""

__version__ = "0.1.0"
