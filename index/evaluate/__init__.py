"""Evaluation: metrics over question sets, the public sets' protocol, the LLM comparison."""
