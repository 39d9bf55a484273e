"""Flaming Pyramids: a shared brick pyramid, a race to shed every tile (pure rules core)."""
