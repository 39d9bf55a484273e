"""The shared property harness every game's tests call.

    from games.engine.testing import check_rules
    report = check_rules(get_rules("powerhouse"), games=200)

Random playouts over many seeds and every player count (and every option set
given), checking at every step that:
- `to_move` and `legal_moves` agree, and a finished game has an outcome;
- every legal move is accepted (all of them on sampled steps, the chosen one
  always) and `apply` never mutates its input;
- junk moves, and moves by seats that owe nothing, raise IllegalMove and leave
  the state unchanged;
- `dump` is JSON-able and `load(dump(s)) == s`;
- every view (each seat and the spectator) is JSON-able and holds neither the
  seed nor the generator state;
- the same seed and moves give equal dumps, also in a fresh process.
Failures raise AssertionError naming the game, seed and step.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .base import Rules
from .errors import IllegalMove
from .rng import Rng

JUNK_MOVES: list[Any] = [
    None, 0, -1, 3.5, "", "pass", [], [1, 2], {}, {"type": None}, {"type": 7},
    {"type": "no-such-move"}, {"type": ""}, {"type": ["x"]}, {"move": "x"},
]

SECRET_KEYS = {"seed", "rng", "rng_state", "random_state"}


@dataclass
class Playout:
    """One random game: its setup, the decisions made and the final state."""

    players: int
    seed: int
    options: dict
    moves: list[tuple[int, dict]] = field(default_factory=list)
    final: Any = None


@dataclass
class Report:
    """What a harness run covered."""

    games: int = 0
    decisions: int = 0
    finished: int = 0
    by_players: dict = field(default_factory=dict)


def canonical(move: Any) -> str:
    """A move as canonical JSON text (keeps True and 1 apart, unlike ==)."""
    return json.dumps(move, sort_keys=True, default=repr)


def _dumps(rules: Rules, state) -> str:
    return json.dumps(rules.dump(state), sort_keys=True)


def _junk_variants(move: dict, rng: Rng) -> list[Any]:
    """Legal-looking moves with one field spoiled."""
    out = []
    for key, value in move.items():
        if key == "type":
            continue
        for bad in (None, -1, 999, "zzz", [value], {"x": 1}, True, 2.5):
            if bad != value:
                spoiled = dict(move)
                spoiled[key] = bad
                out.append(spoiled)
        spoiled = dict(move)
        del spoiled[key]
        out.append(spoiled)
    extra = dict(move)
    extra["unexpected"] = rng.randbelow(1000)
    out.append(extra)
    return out


def _find_numbers(obj: Any, forbidden: set[int], path: str = "") -> str | None:
    if isinstance(obj, bool):
        return None
    if isinstance(obj, int) and obj in forbidden:
        return path
    if isinstance(obj, dict):
        for key, value in obj.items():
            if str(key) in SECRET_KEYS:
                return f"{path}/{key}"
            if str(key).lstrip("-").isdigit() and int(key) in forbidden:
                return f"{path}/{key}"
            found = _find_numbers(value, forbidden, f"{path}/{key}")
            if found:
                return found
    elif isinstance(obj, (list, tuple)):
        for i, value in enumerate(obj):
            found = _find_numbers(value, forbidden, f"{path}[{i}]")
            if found:
                return found
    return None


def _rng_values(dump: Any) -> set[int]:
    """Integers stored under a generator-state key anywhere in a dump."""
    found: set[int] = set()
    if isinstance(dump, dict):
        for key, value in dump.items():
            if key in SECRET_KEYS and isinstance(value, int) and not isinstance(value, bool):
                found.add(value)
            else:
                found |= _rng_values(value)
    elif isinstance(dump, list):
        for value in dump:
            found |= _rng_values(value)
    return found


def check_view(rules: Rules, state, seat: int | None, *, seed: int,
               dump: dict | None = None) -> dict:
    """The view of `seat`, checked JSON-able and free of seed and rng state."""
    view = rules.view(state, seat)
    assert isinstance(view, dict), "view must be a dict"
    json.dumps(view)
    forbidden = {seed} | _rng_values(rules.dump(state) if dump is None else dump)
    forbidden = {n for n in forbidden if abs(n) > 10_000}
    where = _find_numbers(view, forbidden)
    assert where is None, f"view of seat {seat} leaks the seed or generator state at {where}"
    return view


def check_state(rules: Rules, state, players: int, *, seed: int, rng: Rng,
                check_all_moves: bool, junk: Iterable[Any], where: str) -> None:
    """Every per-state property of the harness."""
    dumped = _dumps(rules, state)
    # dump/load round trip
    data = json.loads(dumped)
    loaded = rules.load(data)
    assert loaded == state, f"{where}: load(dump(s)) != s"
    assert _dumps(rules, loaded) == dumped, f"{where}: dump(load(dump(s))) differs"

    owing = rules.to_move(state)
    assert isinstance(owing, frozenset), f"{where}: to_move must be a frozenset"
    outcome = rules.outcome(state)
    if outcome is not None:
        assert not owing, f"{where}: game over but seats still owe decisions"
        assert set(outcome.get("winners", [])) <= set(range(players)), f"{where}: bad winners"
        json.dumps(outcome)
    else:
        assert owing, f"{where}: no outcome yet nobody owes a decision"

    for seat in [None, *range(players)]:
        check_view(rules, state, seat, seed=seed, dump=data)

    for seat in range(players):
        moves = rules.legal_moves(state, seat)
        assert isinstance(moves, list), f"{where}: legal_moves must be a list"
        if seat not in owing:
            assert moves == [], f"{where}: seat {seat} owes nothing but has moves"
            continue
        assert moves, f"{where}: seat {seat} owes a decision but has no legal move"
        json.dumps(moves)
        keys = [json.dumps(m, sort_keys=True) for m in moves]
        assert len(set(keys)) == len(keys), f"{where}: duplicate legal moves for seat {seat}"
        if check_all_moves:
            for move in moves:
                try:
                    rules.apply(state, seat, copy.deepcopy(move))
                except IllegalMove as exc:  # pragma: no cover - reported
                    raise AssertionError(f"{where}: legal move {move} refused: {exc}") from exc
            assert _dumps(rules, state) == dumped, f"{where}: apply mutated its input"

    legal_by_seat = {seat: {canonical(m) for m in rules.legal_moves(state, seat)} for seat in owing}
    probes: list[tuple[Any, Any]] = []
    for seat in sorted(owing):
        probes.extend((seat, bad) for bad in junk)
        sample = json.loads(rng.choice(sorted(legal_by_seat[seat])))
        probes.extend((seat, spoiled) for spoiled in _junk_variants(sample, rng))
    all_legal = sorted(set().union(*legal_by_seat.values())) if legal_by_seat else []
    if all_legal:
        some = json.loads(rng.choice(all_legal))
        probes.extend((seat, some) for seat in range(players) if seat not in owing)
        probes.extend((bad_seat, some) for bad_seat in (-1, players, None, "0", 1.0, True))
    for seat, bad in probes:
        if type(seat) is int and seat in owing and canonical(bad) in legal_by_seat[seat]:
            continue  # a spoiled copy that happens to equal another legal move
        try:
            rules.apply(state, seat, copy.deepcopy(bad))
        except IllegalMove:
            pass
        except Exception as exc:  # noqa: BLE001 - the property under test
            raise AssertionError(
                f"{where}: junk {bad!r} from seat {seat!r} raised {type(exc).__name__}: {exc}"
            ) from exc
        else:
            raise AssertionError(f"{where}: {bad!r} from seat {seat!r} is not legal but was accepted")
    # One comparison after all probes: any refused move that changed the state shows here.
    assert _dumps(rules, state) == dumped, f"{where}: a refused move changed the state"


def random_playout(rules: Rules, *, players: int, seed: int, options: dict | None = None,
                   chooser_seed: int | None = None, max_decisions: int = 5000,
                   must_end: bool = True,
                   on_state: Callable[[Any, int], None] | None = None) -> Playout:
    """Play uniformly random legal moves to the end, or stop after `max_decisions`.

    With `must_end` (the default) a game still running then is a failure.
    """
    options = rules.clean_options(options)
    chooser = Rng.from_seed(seed * 7919 + 17 if chooser_seed is None else chooser_seed)
    state = rules.new_game(players=players, seed=seed, options=options)
    playout = Playout(players=players, seed=seed, options=options)
    for step in range(max_decisions):
        if on_state:
            on_state(state, step)
        owing = sorted(rules.to_move(state))
        if not owing:
            break
        seat = chooser.choice(owing)
        move = chooser.choice(rules.legal_moves(state, seat))
        state = rules.apply(state, seat, move)
        playout.moves.append((seat, move))
    else:
        if must_end:
            raise AssertionError(
                f"{rules.slug}: {players} players, seed {seed}: no end after {max_decisions} "
                "decisions")
    playout.final = state
    return playout


def replay(rules: Rules, *, players: int, seed: int, options: dict, moves) -> Any:
    """The state after applying `moves` ((seat, move) pairs) from a new game."""
    state = rules.new_game(players=players, seed=seed, options=options)
    for seat, move in moves:
        state = rules.apply(state, seat, move)
    return state


_FRESH = """
import base64, importlib, json, pickle, sys
from games.engine import get_rules
from games.engine.testing import replay
data = json.load(sys.stdin)
for module in data["imports"]:
    importlib.import_module(module)
if data["pickled"]:
    rules = pickle.loads(base64.b64decode(data["pickled"]))
else:
    try:
        rules = get_rules(data["slug"])
    except KeyError:
        sys.exit("the fresh process cannot find the rules of " + repr(data["slug"]) + ": "
                 "register them (games.engine.register, an entry point) or pass "
                 "fresh_process_imports=[the package that registers them]")
state = replay(rules, players=data["players"], seed=data["seed"], options=data["options"],
               moves=[(s, m) for s, m in data["moves"]])
print(json.dumps(rules.dump(state), sort_keys=True))
"""


def _pickled_rules(rules: Rules) -> str:
    """The rules object itself for the fresh process ('' if it cannot be pickled).

    Unpickling imports the rules' module by name, so a game registered only in its
    package's ``__init__.py`` (or not registered at all) replays without any
    `fresh_process_imports`.
    """
    import base64
    import pickle

    try:
        data = pickle.dumps(rules)
        pickle.loads(data)
    except Exception:  # noqa: BLE001 - e.g. a class defined inside a function
        return ""
    return base64.b64encode(data).decode("ascii")


def check_fresh_process(rules: Rules, playout: Playout, *, imports: Iterable[str] = (),
                        cwd: str | None = None) -> None:
    """Replaying `playout` in a new Python process gives an equal dump."""
    payload = json.dumps({
        "slug": rules.slug, "players": playout.players, "seed": playout.seed,
        "options": playout.options, "moves": playout.moves, "imports": list(imports),
        "pickled": _pickled_rules(rules),
    })
    result = subprocess.run(
        [sys.executable, "-c", _FRESH], input=payload, capture_output=True, text=True,
        timeout=300, cwd=cwd, env={"PYTHONHASHSEED": "random", **_env()},
    )
    assert result.returncode == 0, (
        f"{rules.slug}: fresh-process replay failed: {result.stderr[-2000:]}")
    assert result.stdout.strip() == _dumps(rules, playout.final), (
        f"{rules.slug}: seed {playout.seed}: a fresh process replayed to a different state")


def _env() -> dict:
    import os
    env = dict(os.environ)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env


def check_rules(rules: Rules, *, games: int = 200, player_counts: Iterable[int] | None = None,
                option_sets: Iterable[dict] | None = None, first_seed: int = 1_000_003,
                check_every: int = 1, all_moves_every: int = 5, max_decisions: int = 5000,
                invariant: Callable[[Any], None] | None = None, fresh_process_games: int = 2,
                fresh_process_imports: Iterable[str] = (), require_finish: bool = True,
                junk: Iterable[Any] = ()) -> Report:
    """Run the whole property harness; returns what it covered.

    `games` playouts are spread over every player count and option set.
    `check_every`/`all_moves_every` thin the costly per-state checks on long
    games (every Nth state is checked; every Nth checked state applies all its
    legal moves). `invariant(state)` is the game's own check, run on every state.
    """
    counts = list(player_counts or range(rules.min_players, rules.max_players + 1))
    sets = [rules.clean_options(o) for o in (option_sets or [{}])]
    junk = [*JUNK_MOVES, *junk]
    report = Report()
    combos = [(p, o) for p in counts for o in sets]
    fresh_done = 0
    for index in range(games):
        players, options = combos[index % len(combos)]
        seed = first_seed + index * 104_729
        probe_rng = Rng.from_seed(seed ^ 0xABCDEF)
        checked = [0]

        def on_state(state, step, players=players, seed=seed, probe_rng=probe_rng,
                     checked=checked):
            if invariant:
                invariant(state)
            if step % check_every:
                return
            checked[0] += 1
            check_state(rules, state, players, seed=seed, rng=probe_rng,
                        check_all_moves=checked[0] % all_moves_every == 1 or all_moves_every == 1,
                        junk=junk, where=f"{rules.slug} p={players} seed={seed} step={step}")

        playout = random_playout(rules, players=players, seed=seed, options=options,
                                 max_decisions=max_decisions, must_end=require_finish,
                                 on_state=on_state)
        final = playout.final
        if invariant:
            invariant(final)
        check_state(rules, final, players, seed=seed, rng=probe_rng, check_all_moves=True,
                    junk=junk, where=f"{rules.slug} p={players} seed={seed} final")
        if require_finish:
            assert rules.outcome(final) is not None, f"{rules.slug} seed {seed}: game did not end"
        # determinism within this process
        again = replay(rules, players=players, seed=seed, options=options, moves=playout.moves)
        assert _dumps(rules, again) == _dumps(rules, final), (
            f"{rules.slug} seed {seed}: the same seed and moves gave a different state")
        if fresh_done < fresh_process_games:
            check_fresh_process(rules, playout, imports=fresh_process_imports)
            fresh_done += 1
        report.games += 1
        report.decisions += len(playout.moves)
        report.finished += rules.outcome(final) is not None
        report.by_players[players] = report.by_players.get(players, 0) + 1
    return report
