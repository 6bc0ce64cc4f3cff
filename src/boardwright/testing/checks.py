"""The checks of `check_game` on random games (see the package docstring).

Each game is played from seed `seed + i` by uniform random moves drawn from a generator of the
same seed, so a failure names everything needed to see it again: the game, its seed and its
moves (`GameCheckError.record` replays the position). Cheap checks run at every move; the
costly ones (every legal action's conversions, clones, determinizations, secret swaps) at
plies 0, 1, 2, 4, 8, ... and at the end, as OpenSpiel's random simulation test serializes.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

import boardwright as bw
from boardwright.core.errors import BoardwrightError
from boardwright.core.game import Game, State
from boardwright.core.record import GameRecord

PLAY, IDS, REPLAY, CLONE, RECORD = "play", "ids", "replay", "clone", "record"
SECRETS, DETERMINIZE, CHANCE = "secrets", "determinize", "chance"
OPENSPIEL, PETTINGZOO = "openspiel", "pettingzoo"
#: Every check, in the order they run.
CHECKS = (PLAY, IDS, REPLAY, CLONE, RECORD, SECRETS, DETERMINIZE, CHANCE, OPENSPIEL, PETTINGZOO)
DEFAULT_STEP_LIMIT = 5_000  # for a game that declares no `max_decisions`
CLONE_PLIES = 4  # moves played on a clone or a determinization to see that it is its own


class GameCheckError(AssertionError):
    """A check of `check_game` failed: `check` names it, `seed` and `moves` (JSON actions)
    reproduce the position, `record` replays it (`bw.replay(error.record)` for a registered
    game)."""

    def __init__(self, message: str, check: str, seed: int | None = None,
                 moves: list[Any] | None = None, record: Any = None) -> None:
        super().__init__(message)
        self.check = check
        self.seed = seed
        self.moves = moves or []
        self.record = record


@dataclass
class CheckReport:
    """What `check_game` did: the game, the random games and decisions played, the checks
    that ran, and those skipped with the reason."""

    game: str
    players: int
    options: dict[str, Any]
    games: int = 0
    decisions: int = 0
    chance_events: int = 0
    ran: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)


def _moves_text(moves: list[Any]) -> str:
    shown = json.dumps(moves, separators=(",", ":"))
    if len(shown) <= 1500:
        return shown
    return f"{json.dumps(moves[:10], separators=(',', ':'))[:-1]}, ... ({len(moves)} moves: " \
           "see error.moves)]"


class _Run:
    """One configured game under test, and the context a failure reports."""

    def __init__(self, game: Game, checks: set[str], report: CheckReport) -> None:
        self.game = game
        self.checks = checks
        self.report = report
        self.seats = list(range(game.num_players))
        self.seed: int | None = None
        self.state: State | None = None

    def fail(self, check: str, detail: str, state: State | None = None) -> GameCheckError:
        state = self.state if state is None else state
        moves: list[Any] = []
        record = None
        if state is not None:
            try:
                record = state.record
                moves = list(record.actions)
            except BoardwrightError:
                moves = [a.to_json() for a in getattr(state, "history", [])]
        where = (f" in the game of seed {self.seed} after {len(moves)} moves "
                 f"{_moves_text(moves)}" if self.seed is not None else "")
        game = self.game
        return GameCheckError(
            f"check_game({game.name!r}, players={game.num_players}, "
            f"options={game.option_summary()!r}): check {check!r} failed{where}: {detail}",
            check, self.seed, moves, record)

    def on(self, check: str) -> bool:
        return check in self.checks

    def do(self, check: str, method: Any, *args: Any) -> Any:
        """Run one check; an error the game raises on the way is that check's failure."""
        try:
            return method(*args)
        except GameCheckError:
            raise
        except Exception as exc:
            raise self.fail(check, f"the game raised {type(exc).__name__}: {exc}") from exc

    # -- a snapshot of what a state shows, to see that it did not change ----------------------

    def snapshot(self, state: State) -> Any:
        views = [_json(state.view(seat)) for seat in [*self.seats, None]]
        legal = [_json(a.to_json()) for a in state.legal_actions()]
        return views, legal, state.current_player, list(state.scores)

    # -- every move ---------------------------------------------------------------------------

    def check_position(self, state: State, decisions: int) -> None:
        game = self.game
        if not self.on(PLAY):
            return
        n = game.num_players
        scores = state.scores
        if len(scores) != n or not all(isinstance(s, (int, float)) and not isinstance(s, bool)
                                       and math.isfinite(s) for s in scores):
            raise self.fail(PLAY, f"scores {scores!r} are not {n} finite numbers")
        returns = state.returns()
        if len(returns) != n or not all(isinstance(r, (int, float)) and math.isfinite(r)
                                        for r in returns):
            raise self.fail(PLAY, f"returns() {returns!r} are not {n} finite numbers")
        if state.is_terminal:
            if state.legal_actions():
                raise self.fail(PLAY, "the game is over but legal_actions() is not empty")
            if state.current_player != -1:
                raise self.fail(PLAY, f"the game is over but current_player is "
                                      f"{state.current_player}, not -1")
            if any(not -1.0 - 1e-9 <= r <= 1.0 + 1e-9 for r in returns) or \
                    abs(sum(returns)) > 1e-6:
                raise self.fail(PLAY, f"final returns() {returns!r} are not zero-sum values in "
                                      "[-1, 1] (what the adapters declare)")
            return
        if any(r != 0 for r in returns):
            raise self.fail(PLAY, f"returns() {returns!r} are not zeros while the game runs")
        if state.current_player not in self.seats:
            raise self.fail(PLAY, f"current_player {state.current_player!r} is no seat of "
                                  f"{n} while the game runs")
        if not state.legal_actions():
            raise self.fail(PLAY, "the game is not over but legal_actions() is empty")
        bound = game.max_decisions()
        if bound is not None and decisions >= bound:
            raise self.fail(PLAY, f"{decisions} decisions made and the game is not over, but "
                                  f"max_decisions() is {bound}")

    def check_action(self, state: State, action: Any) -> None:
        """One action's conversions: id in range and back, JSON through text and back."""
        game = self.game
        try:
            data = action.to_json()
            text = json.dumps(data)
        except (TypeError, ValueError) as exc:
            raise self.fail(IDS, f"action {action!r}: to_json() is not JSON ({exc})") from None
        if not isinstance(data, dict) or "type" not in data:
            raise self.fail(IDS, f"action {action!r}: to_json() {data!r} has no \"type\"")
        back = game.action_from_json(json.loads(text))
        if back != action:
            raise self.fail(IDS, f"action_from_json({text}) gives {back!r}, not {action!r}")
        action_id = game.action_id(action)
        if type(action_id) is not int or not 0 <= action_id < game.num_distinct_actions:
            raise self.fail(IDS, f"action_id({action!r}) is {action_id!r}, outside 0.."
                                 f"{game.num_distinct_actions - 1} (num_distinct_actions)")
        again = game.action_from_id(action_id)
        if again != action:
            raise self.fail(IDS, f"action_from_id({action_id}) gives {again!r}, not the "
                                 f"action {action!r} whose id it is")

    def check_legal_ids(self, state: State) -> None:
        game = self.game
        legal = state.legal_actions()
        ids = [game.action_id(a) for a in legal]
        if len(set(ids)) != len(ids):
            raise self.fail(IDS, "two legal actions share an id")
        fast = state.legal_action_ids()
        if list(fast) != ids:
            raise self.fail(IDS, f"legal_action_ids() {list(fast)[:20]} is not the ids of "
                                 f"legal_actions() {ids[:20]} in the same order")
        for action in legal:
            self.check_action(state, action)

    # -- at probes ------------------------------------------------------------------------------

    def check_views_are_json(self, state: State) -> None:
        for seat in [*self.seats, None]:
            try:
                json.dumps(state.view(seat))
            except (TypeError, ValueError) as exc:
                raise self.fail(PLAY, f"view({seat}) is not JSON: {exc}") from None

    def check_clone(self, state: State, rng: random.Random) -> tuple[State, Any]:
        """A clone played on must leave the state as it was; returns another clone and its
        snapshot, checked at the end of the game (the state played on must leave it too)."""
        before = self.snapshot(state)
        copy = state.clone()
        if copy is state:
            raise self.fail(CLONE, "clone() returned the state itself")
        if not copy == state:
            raise self.fail(CLONE, "clone() is not == the state it copies (equality: "
                                   "State.signature)")
        _play_on(copy, rng, CLONE_PLIES)
        try:
            after = self.snapshot(state)
        except Exception as exc:
            raise self.fail(CLONE, f"playing on a clone() broke the original "
                                   f"({type(exc).__name__}: {exc}): they share mutable "
                                   "data") from exc
        if after != before:
            raise self.fail(CLONE, "playing on a clone() changed the original: they share "
                                   "mutable data")
        kept = state.clone()
        return kept, self.snapshot(kept)

    def check_determinize(self, state: State, rng: random.Random) -> None:
        before = self.snapshot(state)
        for seat in self.seats:
            other = state.determinize(seat, random.Random(rng.getrandbits(64)))
            if other is state:
                raise self.fail(DETERMINIZE, f"determinize({seat}) returned the state itself")
            mine, theirs = state.view(seat), other.view(seat)
            if _json(mine) != _json(theirs):
                raise self.fail(DETERMINIZE, (
                    f"the view of seat {seat} differs between the state and its "
                    f"determinize({seat}) in {_differing(mine, theirs)}: either the view "
                    f"shows seat {seat} something it may not know (another seat's secret, a "
                    "future draw), or determinize changed something the seat can see"))
            if state.current_player == seat:
                legal = sorted(_json(a.to_json()) for a in state.legal_actions())
                if sorted(_json(a.to_json()) for a in other.legal_actions()) != legal:
                    raise self.fail(DETERMINIZE, f"determinize({seat}) has other legal "
                                                 f"actions for seat {seat}, who is to move")
            _play_on(other, rng, CLONE_PLIES)
        if self.snapshot(state) != before:
            raise self.fail(DETERMINIZE, "determinize() (or playing on its result) changed "
                                         "the original state")

    def check_secrets(self, before: State, action: Any, after: State) -> None:
        """Swap the secret of the action just taken for another with the same public form:
        a seat that is not the actor must not see a difference the spectator does not see."""
        game = self.game
        actor = before.current_player
        public = game.public_action(action, actor, None)
        if public == action.to_json():
            return
        for other in before.legal_actions():
            if other == action or game.public_action(other, actor, None) != public:
                continue
            twin = before.clone()
            twin.apply(other)
            if _json(twin.view(None)) != _json(after.view(None)):
                continue  # a public reveal: everyone may see the difference
            for seat in self.seats:
                if seat == actor:
                    continue
                mine, theirs = after.view(seat), twin.view(seat)
                if _json(mine) != _json(theirs):
                    raise self.fail(SECRETS, (
                        f"seat {seat}'s view tells seat {actor}'s secret action "
                        f"{_json(action.to_json())} from {_json(other.to_json())} (same public "
                        f"form {_json(public)}), which a spectator cannot: it differs in "
                        f"{_differing(mine, theirs)}"), after)
            return  # one swap a probe

    # -- at the end -----------------------------------------------------------------------------

    def check_replay(self, state: State) -> None:
        record = state.record
        again = _replay(self.game, record)
        if not again == state:
            same_views = all(_json(again.view(s)) == _json(state.view(s))
                             for s in [*self.seats, None])
            raise self.fail(REPLAY, "replaying the record (new_game(seed) and its actions) "
                            "gives a state that is not == the one played (views "
                            f"{'equal' if same_views else 'different'}; equality is "
                            "State.signature)")

    def check_record(self, state: State) -> None:
        game = self.game
        record = state.record
        if (record.game, record.players, record.version) != (game.name, game.num_players,
                                                             game.version):
            raise self.fail(RECORD, f"the record names game {record.game!r} for "
                                    f"{record.players} players, version {record.version!r}")
        if record.options != game.option_summary():
            raise self.fail(RECORD, f"the record's options {record.options!r} are not the "
                                    f"game's {game.option_summary()!r}")
        loaded = GameRecord.loads(record.dumps().encode("utf-8"))
        if loaded.to_json() != record.to_json():
            raise self.fail(RECORD, "the record changes through JSON bytes "
                                    "(GameRecord.loads(record.dumps().encode()))")
        if not _replay(game, loaded) == state:
            raise self.fail(RECORD, "the record read back from JSON bytes does not replay "
                                    "to the state")


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def _differing(a: Any, b: Any) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(k for k in set(a) | set(b) if _json(a.get(k)) != _json(b.get(k)))
        return "fields " + ", ".join(repr(k) for k in keys[:8])
    return "its value"


def _play_on(state: State, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        if state.is_terminal:
            return
        state.apply(rng.choice(state.legal_actions()))


def _replay(game: Game, record: GameRecord) -> State:
    state = game.new_game(record.seed)
    for data in record.actions:
        state.apply(game.action_from_json(data))
    state.meta.update(record.meta)
    return state


def _probes(ply: int) -> bool:
    return ply < 2 or ply & (ply - 1) == 0


def _play_one(run: _Run, seed: int, step_limit: int) -> None:
    game, report = run.game, run.report
    run.seed, run.state = seed, None
    state = game.new_game(seed)
    run.state = state
    rng = random.Random(seed)
    kept: list[tuple[State, Any, int]] = []
    ply = 0
    while True:
        run.do(PLAY, run.check_position, state, ply)
        probe = _probes(ply) or state.is_terminal
        if probe:
            if run.on(PLAY):
                run.do(PLAY, run.check_views_are_json, state)
            if run.on(IDS) and not state.is_terminal:
                run.do(IDS, run.check_legal_ids, state)
            if run.on(CLONE):
                copy, snap = run.do(CLONE, run.check_clone, state, rng)
                kept.append((copy, snap, ply))
            if run.on(DETERMINIZE):
                run.do(DETERMINIZE, run.check_determinize, state, rng)
        if state.is_terminal:
            break
        if ply >= step_limit:
            raise run.fail(PLAY, f"the game did not end within {step_limit} random moves")
        action = rng.choice(state.legal_actions())
        if run.on(IDS):
            run.do(IDS, run.check_action, state, action)
        before = state.clone() if probe and run.on(SECRETS) and \
            game.public_action(action, state.current_player, None) != action.to_json() else None
        run.do(PLAY, state.apply, action)
        ply += 1
        if before is not None:
            run.do(SECRETS, run.check_secrets, before, action, state)
    for copy, snap, at in kept:
        if run.do(CLONE, run.snapshot, copy) != snap:
            raise run.fail(CLONE, f"the clone() taken after {at} moves changed when the "
                                  "original played on: they share mutable data")
    if run.on(REPLAY):
        run.do(REPLAY, run.check_replay, state)
    if run.on(RECORD):
        run.do(RECORD, run.check_record, state)
    report.games += 1
    report.decisions += ply


def _check_chance(run: _Run, games: int, seed: int) -> None:
    """Random games of the explicit-chance mode: outcomes with probabilities adding up to 1,
    ids inside `chance_outcome_count`, the bounds kept, the end reached."""
    game, report = run.game, run.report
    cap = game.max_decisions()
    chance_cap = game.max_chance_events()
    for index in range(games):
        rng = random.Random(f"chance:{seed + index}")
        run.seed, run.state = None, None
        state: Any = game.new_chance_game()
        decisions = events = 0
        path: list[Any] = []
        while not state.is_terminal:
            if state.is_chance_node:
                outcomes = state.chance_outcomes()
                total = sum(p for _, p in outcomes)
                if not outcomes or abs(total - 1.0) > 1e-9 or any(p <= 0 for _, p in outcomes):
                    raise run.fail(CHANCE, f"chance node after steps {path}: outcomes "
                                           f"{outcomes[:10]} do not have positive "
                                           "probabilities adding up to 1")
                bad = [o for o, _ in outcomes if not 0 <= o < game.chance_outcome_count]
                if bad:
                    raise run.fail(CHANCE, f"chance outcome ids {bad[:5]} outside 0.."
                                           f"{game.chance_outcome_count - 1} "
                                           "(chance_outcome_count)")
                outcome = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
                state.apply_chance(outcome)
                path.append(["chance", outcome])
                events += 1
                if chance_cap is not None and events > chance_cap:
                    raise run.fail(CHANCE, f"more than max_chance_events() = {chance_cap} "
                                           f"chance events (steps {path})")
                continue
            legal = state.legal_actions()
            if not legal:
                raise run.fail(CHANCE, f"a decision with no legal action (steps {path})")
            action = rng.choice(legal)
            state.apply(action)
            path.append(action.to_json())
            decisions += 1
            if (cap is not None and decisions > cap) or decisions > DEFAULT_STEP_LIMIT:
                raise run.fail(CHANCE, f"the chance game did not end within {decisions} "
                                       "decisions")
        report.chance_events += events


def _load(game_or_name: Game | str, players: int | None,
          options: dict[str, Any] | None) -> Game:
    if isinstance(game_or_name, Game):
        if players is not None or options is not None:
            raise bw.InvalidOptionError("check_game takes players and options with a game's "
                                        "name, not with a Game (which has them)")
        return game_or_name
    if not isinstance(game_or_name, str):
        raise bw.InvalidOptionError(f"check_game takes a Game or a game's name, not "
                                    f"{type(game_or_name).__name__}")
    return bw.load(game_or_name, 2 if players is None else players, options or {})


def check_game(game_or_name: Game | str, *, players: int | None = None,
               options: dict[str, Any] | None = None, games: int = 3, seed: int = 0,
               checks: Collection[str] | None = None, skip: Collection[str] = (),
               max_steps: int | None = None, adapter_games: int = 1) -> CheckReport:
    """Check a game (a `Game`, or a game's name with `players` and `options`) on `games`
    random games from seeds `seed`, `seed + 1`, ... (see the module docstring); `checks`
    (default: all of `CHECKS`) minus `skip` say which run. The OpenSpiel and PettingZoo checks
    need the game registered under its name and the library installed, and are skipped
    otherwise (the report says why); they play `adapter_games` games each (OpenSpiel's
    serialization test replays every position it saves, so it is the slowest check).
    `max_steps` bounds a game's moves when the game declares no `max_decisions`. Raises
    `GameCheckError` at the first failure; returns a report."""
    game = _load(game_or_name, players, options)
    chosen = set(CHECKS if checks is None else checks) - set(skip)
    unknown = chosen - set(CHECKS)
    if unknown:
        raise bw.InvalidOptionError(f"unknown checks {sorted(unknown)}; checks: "
                                    f"{', '.join(CHECKS)}")
    for name, value in (("games", games), ("adapter_games", adapter_games)):
        if type(value) is not int or value < 1:
            raise bw.InvalidOptionError(f"{name} must be a whole number >= 1, not {value!r}")
    report = CheckReport(game.name, game.num_players, game.option_summary())
    run = _Run(game, chosen, report)
    bound = game.max_decisions()
    step_limit = max_steps or (bound if bound is not None else DEFAULT_STEP_LIMIT)
    for index in range(games):
        _play_one(run, seed + index, step_limit)
    report.ran = [c for c in CHECKS if c in chosen and c not in (CHANCE, OPENSPIEL, PETTINGZOO)]
    if CHANCE in chosen:
        try:
            game.new_chance_game()
        except bw.InvalidOptionError as exc:
            report.skipped[CHANCE] = str(exc)
        else:
            _check_chance(run, games, seed)
            report.ran.append(CHANCE)
    from boardwright.testing.adapters import check_openspiel, check_pettingzoo
    for name, check in ((OPENSPIEL, check_openspiel), (PETTINGZOO, check_pettingzoo)):
        if name in chosen:
            reason = check(run, adapter_games, seed)
            if reason:
                report.skipped[name] = reason
            else:
                report.ran.append(name)
    return report
