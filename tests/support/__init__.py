"""Helpers that only tests, benchmarks and report scripts use (not shipped in the wheel)."""
