"""Simulation: many seeded bot games through the rules engine, tallied with intervals."""
