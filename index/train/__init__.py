"""Training the answer model and the gloss table from public data (make train, make glosses)."""
