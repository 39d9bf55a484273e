"""The surface every game implements (see docs/engine.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from .errors import IllegalMove
from .i18n import _

Move = dict
State = Any


@dataclass(frozen=True)
class Option:
    """One table option (a variant) with its default.

    `kind` is "bool" or "choice"; a choice lists its `choices` as
    (value, label) pairs. Labels are English, marked with `_` for translation.
    """

    key: str
    label: str
    default: Any
    kind: str = "bool"
    choices: tuple = ()
    help: str = ""

    def clean(self, value: Any) -> Any:
        """The option's value from untrusted input, or IllegalMove."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if value in ("on", "true", "True", "1", 1):
                return True
            if value in ("", "off", "false", "False", "0", 0, None):
                return False
            raise IllegalMove(_("Option {option} must be on or off."), code="bad_option", option=self.key)
        allowed = [c[0] for c in self.choices]
        for candidate in allowed:
            if value == candidate or str(value) == str(candidate):
                return candidate
        raise IllegalMove(_("Option {option} has no choice {value}."), code="bad_option",
                          option=self.key, value=str(value)[:40])


@dataclass(frozen=True)
class Rules:
    """Base class of a game's rules. Subclasses override the methods below.

    An instance is stateless; every state goes in and a new state comes out.
    """

    slug: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 2
    options: tuple[Option, ...] = field(default_factory=tuple)
    # Bumped whenever a change to the rules would fold an old event log to a
    # different state; each table records the version it started with.
    rules_version: int = 1

    # -- table options ------------------------------------------------------
    def default_options(self) -> dict:
        """Every option with its default value."""
        return {o.key: o.default for o in self.options}

    def clean_options(self, options: dict | None) -> dict:
        """Defaults filled in and values checked; unknown keys refused."""
        options = dict(options or {})
        known = {o.key: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise IllegalMove(_("Unknown option {option}."), code="bad_option", option=unknown[0])
        return {key: opt.clean(options.get(key, opt.default)) for key, opt in known.items()}

    def check_players(self, players: int) -> None:
        """Refuse a player count outside the game's range."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise IllegalMove(_("This game is for {low} to {high} players."), code="bad_players",
                              low=self.min_players, high=self.max_players)

    # -- the contract --------------------------------------------------------
    def new_game(self, *, players: int, seed: int, options: dict | None = None) -> State:
        """A fresh game for `players` seats, all chance drawn from `seed`."""
        raise NotImplementedError

    def to_move(self, state: State) -> frozenset[int]:
        """Seats that owe a decision now; empty when the game is over."""
        raise NotImplementedError

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every move `seat` may make now; empty if it owes nothing."""
        raise NotImplementedError

    def apply(self, state: State, seat: int, move: Move) -> State:
        """A new state after `seat` makes `move`; raises IllegalMove."""
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict:
        """All that `seat` may see (None: a spectator), JSON-able."""
        raise NotImplementedError

    def outcome(self, state: State) -> dict | None:
        """None while running; else {"winners": [...], "scores": {...}}."""
        raise NotImplementedError

    def result(self, state: State) -> dict | None:
        """None while running; else the final standing of every seat.

        {"places": [place of seat 0, of seat 1, ...] (1 is best, equal places
        are ties), "scores": [number or None per seat], "winners": [seats]}.
        The default ranks the outcome's winners first, then the rest by score.
        """
        outcome = self.outcome(state)
        if outcome is None:
            return None
        scores_map = outcome.get("scores") or {}
        seats = list(range(max([int(k) + 1 for k in scores_map]
                               + [w + 1 for w in outcome.get("winners", [])] + [0])))
        winners = list(outcome.get("winners", []))
        scores = [scores_map.get(str(s), scores_map.get(s)) for s in seats]
        keys = [(1 if s in winners else 0, scores[i] if scores[i] is not None else 0)
                for i, s in enumerate(seats)]
        return {"places": places_from_keys(keys), "scores": scores, "winners": winners}

    def dump(self, state: State) -> dict:
        """A JSON-able dict from which `load` rebuilds an equal state."""
        raise NotImplementedError

    def load(self, data: dict) -> State:
        """The state `dump` described."""
        raise NotImplementedError

    def for_version(self, version: int) -> "Rules":
        """The rules that replay a table started under rules `version`.

        The current version is `self`. A game that changed its rules may return
        an object keeping the old behaviour for old versions; the default
        refuses them (KeyError), so an old log is never folded by new rules.
        """
        if version == self.rules_version:
            return self
        raise KeyError(f"{self.slug} cannot replay rules version {version} "
                       f"(it plays version {self.rules_version})")

    # -- optional extras -----------------------------------------------------
    def resign(self, state: State, seat: int) -> State | None:
        """The state after `seat` resigns, or None if the table must end.

        Games where the others can play on override this.
        """
        return None

    def seat_names(self, state: State) -> list[str] | None:
        """Optional seat names from the rules (colours, roles); None by default."""
        return None

    # -- helpers for subclasses ------------------------------------------------
    def require_seat(self, state: State, seat: Any, players: int) -> int:
        """Refuse a seat that is not an int in range or owes no decision."""
        if type(seat) is not int or not 0 <= seat < players:
            raise IllegalMove(_("There is no such seat."), code="bad_seat")
        if seat not in self.to_move(state):
            raise IllegalMove(_("It is not your decision now."), code="not_your_turn")
        return seat


def places_from_keys(keys: list) -> list[int]:
    """Competition places (1, 2, 2, 4) from one sort key per seat, higher is better."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def require_move_dict(move: Any, types: Iterable[str]) -> str:
    """The move's type after checking `move` is a dict with a known "type"."""
    if not isinstance(move, dict):
        raise IllegalMove(_("A move must be an object with a type."), code="bad_move")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in set(types):
        raise IllegalMove(_("Unknown move type."), code="bad_move")
    return kind


def canonical_move(move: Any) -> str:
    """A move as canonical JSON text; keeps True and 1 apart, unlike ==."""
    import json
    return json.dumps(move, sort_keys=True, default=repr)


def check_legal(moves: list[Move], move: Any) -> Move:
    """The entry of `moves` equal to `move`, or IllegalMove.

    Checking a submitted move against the generated legal list is the simplest
    way to honour docs/engine.md rule 2 (anything not legal is refused).
    """
    key = canonical_move(move)
    for candidate in moves:
        if canonical_move(candidate) == key:
            return candidate
    raise IllegalMove(_("That move is not allowed now."), code="illegal")
