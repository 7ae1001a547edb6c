"""Bots: they act through the same views and actions as humans, never the full state."""
