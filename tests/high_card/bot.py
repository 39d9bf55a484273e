"""High Card bots: random, or play the highest card (pure)."""

LEVELS = ("random", "greedy")


def choose(view, legal, *, level, rng):
    if level == "greedy":
        plays = [m for m in legal if m["type"] == "play"]
        if plays:
            return max(plays, key=lambda m: m["card"])
        return next((m for m in legal if m["type"] == "draw"), legal[0])
    return rng.choice(legal)
