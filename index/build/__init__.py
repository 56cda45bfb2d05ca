"""Building an index: the corpus, chunks, embeddings, the FAISS and BM25 stores, versions on disk."""
