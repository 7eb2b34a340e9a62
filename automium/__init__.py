"""Automium v1: a contract-first, model-only browser-QA platform for coding agents."""

__version__ = "0.1.0"
