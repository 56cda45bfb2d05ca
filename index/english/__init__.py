"""English and Chinese: the dictionary, each word's chosen gloss, the corpus's lexicon, glossed sentences."""
