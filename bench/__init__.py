"""Benchmarks of the index against its bare parts: `python -m bench <name>` (see bench/README.md)."""
