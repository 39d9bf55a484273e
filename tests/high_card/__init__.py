"""High Card, the test-only game. Importing this package registers its rules."""

from games.engine import register

register("high-card", "tests.high_card.rules")
