"""Powerhouse (Andrew Looney, Looney Labs): a pure rules engine and its bot."""
