from games.tables.plugins import GameAppConfig


class HighCardConfig(GameAppConfig):
    """The test-only game; installed when ENABLE_TEST_GAME is on."""

    name = "tests.high_card"
    label = "high_card"
    game_slug = "high-card"
