"""The answer pipeline: understand the question, choose sentences, decide, compose with citations."""
