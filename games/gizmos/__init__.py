"""Gizmos (CMON, 2018): pure rules engine and bot; no Django here."""
