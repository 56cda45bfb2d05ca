"""Generated answers: the LLM settings, prompt, local model, and the checks before an answer is shown."""
