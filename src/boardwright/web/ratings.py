"""Ratings of players and bots, one list per game, with OpenSkill's Plackett-Luce model.

Why OpenSkill (openskill.py, the Weng-Lin Bayesian rating): it rates games of any number of
players (Carcassonne 2-6, Rise of the Shogun 2-4) in one update from the finishing order, ties
included, where Elo and Glicko-2 only know duels. A rating is a belief (mu, sigma) about a
player's skill; what the pages show is its `ordinal`, mu - 3 sigma (the skill the player has
with 99.7 % certainty): 0 for a newcomer (25 - 3 x 25/3), rising as games confirm a skill.

Which games are rated: a game is created rated unless its creator says `"rated": false`, and
it stays rated while nobody takes a move back (undo) or asks for a hint (both make it unrated
at once: a rating measures unaided play). When it ends, its ratings are updated if every seat
is either a bot or a seat held by a named player (identity.py), at least one seat is a named
player, and no player holds two seats; otherwise it is stored as unrated. The finishing order is
the game's own ranking, `State.returns()` (scores, and the game's tie-breaks such as Rise of the
Shogun's), equal returns being a tie.

Who is rated: a named player under their identity ("id:<identity id>"), a bot under its level
name when it plays one ("bot:hard"), else under its agent string ("bot:mcts:seconds=0.5").
Two seats of the same bot in one game both take part in the update with the bot's rating, but
the bot's own rating is left as it was (one result for two seats would be arbitrary).

The update runs in the transaction that stores the finished record (`FinishRating`, given to
the storage writer as one operation): the ratings read, the ratings written, and each seat's
rating before and after (kept in the game's seats, shown at the table) commit together or not at
all, and the rows read are locked (PostgreSQL) so two games ending at once do not overwrite each
other's update.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import and_, select, update

from boardwright.agents import HUMAN
from boardwright.agents.levels import level_of
from boardwright.web.schema import IDENTITIES, RATINGS
from boardwright.web.storage import StaleRevision, Storage, now

MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
IDENTITY_PREFIX = "id:"
BOT_PREFIX = "bot:"
LEADERBOARD_SIZE = 100




@dataclass(frozen=True)
class Rating:
    """A (mu, sigma) belief and the value shown for it."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()

    def to_json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": round(self.ordinal, 2)}


INITIAL = Rating(MODEL.mu, MODEL.sigma)


def bot_key(agent: str) -> str:
    """A bot's rating key: its level's name when it plays one, else its agent string."""
    return BOT_PREFIX + (level_of(agent) or agent.strip())


def identity_key(identity_id: str) -> str:
    return IDENTITY_PREFIX + identity_id


def seat_keys(seats: Sequence[dict[str, Any]]) -> list[str] | None:
    """Each seat's rating key, or None when the game cannot be rated: a human seat no named
    player holds, a player in two seats, no named player at all, or a single seat."""
    keys: list[str] = []
    for seat in seats:
        if seat["kind"] == HUMAN:
            identity = seat.get("identity")
            if not identity:
                return None
            keys.append(identity_key(identity))
        else:
            keys.append(bot_key(seat["kind"]))
    people = [k for k in keys if k.startswith(IDENTITY_PREFIX)]
    if len(keys) < 2 or not people or len(set(people)) != len(people):
        return None
    return keys


def rate(before: Sequence[Rating], returns: Sequence[float]) -> list[Rating]:
    """The ratings after a game whose seats had `before` and finished with `returns` (higher
    is better; equal is a tie): one Plackett-Luce update, each seat a team of one."""
    if len(before) != len(returns) or len(before) < 2:
        raise ValueError("one rating and one return per seat, at least two seats")
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    result = MODEL.rate(teams, ranks=[-float(value) for value in returns])
    return [Rating(team[0].mu, team[0].sigma) for team in result]


def changing_keys(keys: Sequence[str]) -> set[str]:
    """The keys whose stored rating a game updates: those that hold exactly one seat."""
    counts = Counter(keys)
    return {key for key, n in counts.items() if n == 1}


def read(connection: Any, game: str, keys: Sequence[str], lock: bool = False) -> dict[str, Any]:
    """The stored rows of these players in this game (locked for update when asked)."""
    query = select(RATINGS).where(and_(RATINGS.c.game == game,
                                       RATINGS.c.player.in_(sorted(set(keys)))))
    if lock:
        query = query.with_for_update()
    return {row.player: row for row in connection.execute(query).all()}


@dataclass
class FinishRating:
    """The storage operation that ends a rated game: save the finished record (`values`),
    update the ratings, and store each seat's rating before and after, in one transaction.
    After it has run, `seats` and `changes` hold what was stored."""

    storage: Storage
    game_id: str
    game: str
    seats: list[dict[str, Any]]
    keys: list[str]
    returns: list[float]
    values: dict[str, Any]
    changes: list[dict[str, Any]] = field(default_factory=list)
    revision: int | None = None  # the game row's revision the record was made from

    def __call__(self, connection: Any) -> int | StaleRevision:
        """The game row first, conditionally on `revision` (another server process may have
        changed the game: then nothing at all is written), then the ratings. Returns the
        row's new revision, or StaleRevision."""
        stored = read(connection, self.game, self.keys, lock=True)
        before = [Rating(stored[k].mu, stored[k].sigma) if k in stored else INITIAL
                  for k in self.keys]
        after = rate(before, self.returns)
        stamp = now()
        changing = changing_keys(self.keys)
        changes = []
        seats = []
        for seat, key, old, new in zip(self.seats, self.keys, before, after):
            if key not in changing:
                new = old
            change = {"player": key, "before": old.to_json(), "after": new.to_json(),
                      "change": round(new.ordinal - old.ordinal, 2)}
            changes.append(change)
            seats.append({**seat, "rating": change})
        values = {**self.values, "seats": seats, "rated": True}
        outcome = self.storage.update_in(connection, self.game_id, values, self.revision)
        if isinstance(outcome, StaleRevision):
            return outcome
        for key, new in zip(self.keys, after):
            if key not in changing:
                continue
            if key in stored:
                connection.execute(update(RATINGS).where(and_(
                    RATINGS.c.game == self.game, RATINGS.c.player == key)).values(
                    mu=new.mu, sigma=new.sigma, games=stored[key].games + 1, updated=stamp))
            else:
                connection.execute(RATINGS.insert(), [{
                    "game": self.game, "player": key, "mu": new.mu, "sigma": new.sigma,
                    "games": 1, "updated": stamp}])
        self.seats, self.changes = seats, changes
        return outcome


def finishing(storage: Storage, game_id: str, game: str, rated: bool,
              seats: Sequence[dict[str, Any]], returns: Sequence[float],
              values: dict[str, Any]) -> FinishRating | None:
    """The operation that stores a finished game with its rating update, or None when the game
    is not rated (then `values` is given "rated": False when the game was created rated but
    cannot be: an unnamed human seat, a player in two seats)."""
    if not rated:
        return None
    keys = seat_keys(seats)
    if keys is None:
        values["rated"] = False
        return None
    return FinishRating(storage, game_id, game, [dict(s) for s in seats], keys,
                        [float(r) for r in returns], dict(values))


def leaderboard(storage: Storage, game: str, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The best `limit` players and bots of a game by ordinal (mu - 3 sigma), with their names
    (a player's current name; a bot's key without "bot:"), ratings and games played."""
    ordinal = RATINGS.c.mu - 3 * RATINGS.c.sigma
    with storage.engine.connect() as connection:
        rows = connection.execute(
            select(RATINGS, IDENTITIES.c.name)
            .select_from(RATINGS.outerjoin(IDENTITIES, and_(
                RATINGS.c.player.startswith(IDENTITY_PREFIX),
                IDENTITIES.c.id == _identity_of())))
            .where(RATINGS.c.game == game)
            .order_by(ordinal.desc(), RATINGS.c.games.desc(), RATINGS.c.player)
            .limit(limit)).all()
    board = []
    for rank, row in enumerate(rows, start=1):
        bot = row.player.startswith(BOT_PREFIX)
        rating = Rating(row.mu, row.sigma)
        board.append({
            "rank": rank, "player": row.player, "kind": "bot" if bot else "player",
            "name": row.player[len(BOT_PREFIX):] if bot else (row.name or "?"),
            "rating": round(rating.ordinal, 1), "mu": round(row.mu, 3),
            "sigma": round(row.sigma, 3), "games": row.games,
        })
    return board


def _identity_of() -> Any:
    """SQL: the identity id in a player key ("id:<id>" -> "<id>"; bots match nothing)."""
    from sqlalchemy import func

    return func.substr(RATINGS.c.player, len(IDENTITY_PREFIX) + 1)

