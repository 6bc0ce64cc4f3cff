"""Monte Carlo search: UCT, as information-set MCTS wherever a game hides information, or a
paired root compared on common random numbers.

Every iteration starts from `state.determinize(me, rng)`: a copy of the position in which what
the searching player cannot see (Carcassonne: the order of the draw pile) is resampled. The
tree is keyed by actions only, so one tree gathers statistics over many determinizations
(single-observer ISMCTS); a child's exploration term uses how often it was *available* rather
than its parent's visits, as ISMCTS requires. The real state is never played on, so the
search cannot read hidden information.

Strength comes from these additions to plain UCT:
- progressive bias at the root: every root action starts with a prior from the game's
  heuristic one turn ahead (what the greedy agent computes), fading as visits grow;
- root widening: the root considers only its ceil(0.15 * sqrt(visits + 1)) best-prior actions
  (the greedy top one at first, about five after 1,000 iterations), so the visits go deep
  under the moves that matter instead of thinly over dozens of placements;
- progressive widening below the root: a node opens new children as its visits grow (sqrt);
- playouts judged at one point of the turn cycle: a playout runs on (by the game's playout
  policy) until the searcher is about to begin a turn (`state.at_turn_start`), then the game's
  evaluation (`Game.evaluation`: the heuristic unless the game has a search evaluation of its
  own) is turned into returns in [-1, 1], each lead measured from the lead at the root, so
  a lopsided game does not saturate the values. Leaves at mixed points (after my tile, after
  the opponent's turn) differ by what a turn is worth, and more-visited moves, whose subtrees
  are deeper, would be judged at other points than less-visited ones. Extra random plies
  first (`rollout`) measured weaker;
- tree reuse: when the same player decides again right after its chosen action (the figure
  after the tile in Carcassonne), the search continues in the subtree below that action.
Returns are per seat (multi-player); each node is judged by the player who acts there.

The paired root (`paired=K`) replaces the tree: the K best root actions by prior are played out
on shared samples, round by round (one determinization and one random stream per round, used by
every candidate), and the best mean wins. It pays when the moves worth comparing are few (the
prior finds them) and differ by much less than the luck of the draw: the paired difference of
two moves that do not interact with what follows has almost no variance, so a few dozen
playouts settle what a tree of a thousand independent iterations blurs. With `greedy_playouts`
each playout decision is the greedy agent's (costly, a whole one-turn lookahead per decision,
hence the few samples), so a move is judged against a competent reply rather than a random one.
`Game.search_defaults` selects it in Carcassonne and Queens, where it measured stronger than
the tree (docs/bots.md#strength gives every match).
"""

from __future__ import annotations

import atexit
import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from boardwright.agents.greedy import greedy_action, lookahead_value
from boardwright.agents.search_returns import OBJECTIVES, lead, soft_returns
from boardwright.core.actions import Action
from boardwright.core.errors import InvalidOptionError
from boardwright.core.game import PlayoutStop, State, rank_returns

MAX_PLAYOUT = 200  # plies after which a playout stops waiting for the searcher's turn (a safety bound)
RACE_FIRST = 8  # rounds a paired root plays before it may drop a candidate (`race`) ...
RACE_EVERY = 4  # ... and how often it looks again


@dataclass
class MCTSConfig:
    iterations: int | None = None  # budget in iterations (deterministic with a seed) ...
    seconds: float | None = None  # ... or in wall time per decision
    exploration: float = 0.7  # UCB constant
    rollout_plies: int = 0  # playout plies at least before the leaf evaluation
    value_scale: float = 12.0  # evaluation point difference that counts as a clear lead
    prior_weight: float = 1.0  # strength of the root prior (progressive bias)
    widening: float = 2.0  # a node may have ceil(widening * sqrt(visits + 1)) children
    max_nodes: int = 200_000  # tree cap: no expansion beyond it (bounded memory)
    ordered_expansion: int = 12  # nodes with at most this many actions expand best-prior first
    workers: int = 1  # root parallelism: independent searches in worker processes, votes summed
    root_widening: float = 0.15  # >0: the root considers its ceil(w * sqrt(visits + 1)) best-prior actions
    game_rollouts: bool = True  # playouts follow the game's rollout policy (else uniform)
    centered: bool = True  # leaf values measured from the root's evaluated lead
    reuse: bool = True  # keep the subtree of the chosen action when the same player decides next
    turn_leaves: bool = True  # playouts run on to the start of the searcher's turn before judging
    paired: int = 0  # >0: the root compares its `paired` best-prior actions on shared samples
    greedy_playouts: bool = False  # playouts play every decision greedily (heuristic, one turn)
    horizon: int = 1  # with turn_leaves: playouts are judged at the horizon-th next turn of mine
    distinct_priors: bool = True  # a paired root skips candidates whose prior equals a chosen one's
    objective: str = "mean"  # "mean": mean of pairwise leads; "first": lead over the best rival
    race: float = 0.0  # >0: a paired root drops a candidate trailing the best by this many SEs
    evaluation: str = "current"  # which of the game's evaluations judges the leaves (by name)


@dataclass
class Node:
    """Statistics of one action sequence; children keyed by action."""

    player: int  # who acts at this node (-1 at the end of the game)
    visits: int = 0
    available: int = 0  # times this node's action was legal when its parent was visited
    totals: list[float] = field(default_factory=list)
    prior: float = 0.0
    children: dict[Any, Node] = field(default_factory=dict)
    priors: dict[Any, float] | None = None  # one-step heuristic priors of small action sets


def _search_votes(state: State, config: MCTSConfig,
                  seed: int) -> list[tuple[Any, int, float, int, float]]:
    """One root-parallel worker: search, then report (action, visits, prior, iterations, total
    return of the searcher)."""
    agent = MCTSAgent(seed=seed)
    agent.config = config
    actions = state.legal_actions()
    me = state.current_player
    root = agent.search(state, actions)
    return [(a, n.visits, n.prior, agent.total_iterations if i == 0 else 0,
             n.totals[me] if n.totals else 0.0)
            for i, (a, n) in enumerate(root.children.items())]


def _backup(path: Sequence[Node], returns: list[float]) -> None:
    """Add one playout's returns to every node it went through."""
    for node in path:
        node.visits += 1
        totals = node.totals
        for i, r in enumerate(returns):
            totals[i] += r


def _count(node: Node) -> int:
    """Nodes below `node` (a kept subtree counts against the tree cap)."""
    total = 0
    stack = [node]
    while stack:
        current = stack.pop()
        total += len(current.children)
        stack.extend(current.children.values())
    return total


class MCTSAgent:
    """Information-set MCTS with a heuristic prior, progressive widening and short rollouts."""

    name = "mcts"

    def __init__(self, seed: int | None = None, iterations: int | None = None,
                 seconds: float | None = None, **params: Any) -> None:
        if iterations is None and seconds is None:
            iterations = 1000
        self.config = MCTSConfig(iterations=iterations, seconds=seconds, **params)
        if self.config.objective not in OBJECTIVES:
            raise InvalidOptionError(f"mcts objective {self.config.objective!r} is not one of "
                                     f"{', '.join(OBJECTIVES)}")
        self._given = self.config  # the settings as asked, before a game's own defaults
        self._given_names = frozenset(params)
        self._game: Any = None  # the game whose search defaults `config` includes
        self.rng = random.Random(seed)
        self.decisions = 0
        self.total_iterations = 0
        self.reused = 0  # decisions that continued the subtree kept from the previous one
        self.nodes = 0
        self._pool: ProcessPoolExecutor | None = None
        self._kept: tuple[Node, int, Any] | None = None  # (subtree, history length, action)
        self._root_order: list[Any] = []
        self._base: list[float] | None = None  # evaluation values at the root
        self._me = 0  # the searching seat
        self.min_candidates = 2  # a paired root compares at least this many actions
        self._leaf_values: list[float] = []  # the last playout's values per seat, in points
        # Per root action of the last paired search: the sums of every seat's lead in points
        # at the playouts' ends (an analysis charts each seat's expected lead) and how many
        # playouts they add up.
        self.leads: dict[Any, list[float]] = {}
        self._samples: dict[Any, int] = {}
        self._dropped: set[Any] = set()  # candidates the last paired search stopped sampling
        self._include: tuple[Any, ...] = ()  # root actions a paired search must compare
        # How each playout's lead is counted in `leads` (an analysis sets its game's unit,
        # core/analysis_unit.py); None: in the evaluation's points. The search ignores it.
        self.lead_unit: Callable[[float], float] | None = None

    # -- public --------------------------------------------------------------------------------

    def adopt(self, game: Any) -> None:
        """Take the game's own search settings (`Game.search_defaults`) for every parameter
        the agent string left unset. An evaluation the game does not offer
        (`Game.evaluation_versions`: "learned" only for a player count with a network shipped)
        is a named error, and the agent stays as it was."""
        if game is self._game:
            return
        defaults = {key: value for key, value in game.search_defaults.items()
                    if key not in self._given_names}
        config = replace(self._given, **defaults)
        offered = tuple(game.evaluation_versions)
        if config.evaluation not in offered:
            raise InvalidOptionError(
                f"mcts evaluation {config.evaluation!r} is not offered by {game.name} with "
                f"{game.num_players} players; offered: {', '.join(offered)}")
        self._game = game
        self.config = config

    def act(self, state: State) -> Action:
        self.adopt(state.game)
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if self.config.workers > 1:
            return self._act_parallel(state, actions)
        root = self.search(state, actions, self._take_kept(state, actions))
        best = self.best_action(root, actions)
        child = root.children[best]
        history = getattr(state, "history", None)
        if self.config.reuse and history is not None and child.children:
            self._kept = (child, len(history) + 1, best)
        return best

    def _take_kept(self, state: State, actions: list[Action]) -> Node | None:
        """The subtree kept from the previous decision, if `state` is what that decision led to
        (the same player deciding again right after the chosen action, e.g. the figure after the
        tile of a Carcassonne turn). A subtree whose actions are not all legal now grew over
        a chance event (a drawn tile) that differed between determinizations: its statistics
        belong to other outcomes, so it is dropped."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        node, length, action = kept
        history = getattr(state, "history", None)
        if history is None or len(history) != length or history[-1] != action:
            return None
        legal = set(actions)
        if any(key not in legal for key in node.children):
            return None
        self.reused += 1
        return node

    def _act_parallel(self, state: State, actions: list[Action]) -> Action:
        """Root parallelism: each worker searches on its own (own seed, full budget); the root
        statistics are added up and chosen from as after one search (`best_action`)."""
        workers = self.config.workers
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=workers)
            atexit.register(self._pool.shutdown, cancel_futures=True)
        config = replace(self.config, workers=1)
        seeds = [self.rng.randrange(2**63) for _ in range(workers)]
        futures = [self._pool.submit(_search_votes, state, config, seed) for seed in seeds]
        me = state.current_player
        merged = Node(player=me)  # the workers' roots added up, judged like one search's
        blank = [0.0] * state.game.num_players
        for future in futures:
            for action, visits, prior, iterations, total in future.result():
                child = merged.children.setdefault(action, Node(player=-2, totals=list(blank),
                                                                prior=prior))
                child.visits += visits
                child.totals[me] += total
                self.total_iterations += iterations
        self.decisions += 1
        self._dropped = set()  # the workers' races are their own
        return self.best_action(merged, actions)

    @property
    def margins(self) -> dict[Any, tuple[float, int]]:
        """Per root action of the last paired search: (sum, count) of the searcher's lead in
        points at the playouts' ends (what a hint reports as the expected margin)."""
        return {action: (sums[self._me], self._samples[action])
                for action, sums in self.leads.items()}

    @property
    def iterations_per_decision(self) -> float:
        return self.total_iterations / self.decisions if self.decisions else 0.0

    def search(self, state: State, actions: list[Action], root: Node | None = None,
               include: Sequence[Action] = ()) -> Node:
        """Run the budget from `state` and return the root (children = root actions). A kept
        subtree may be passed as `root`: its statistics are kept and the budget added.

        `include`: legal actions a paired search compares whatever their prior, on the same
        samples as its own candidates (an analysis judging the move that was played); without
        it the candidates, and so the agent's choices, are the prior's alone."""
        cfg = self.config
        self._include = tuple(include)
        me = self._me = state.current_player
        n = state.game.num_players
        if root is None:
            root = Node(player=me, totals=[0.0] * n)
        root.player = me
        self.nodes = 1 + _count(root)
        self._set_priors(state, root, actions, me)
        # Best prior first, ties in a random order: where equal priors are different moves
        # (Queens' coarse heuristic early on), always taking the first listed would play
        # the same piece again and again.
        shuffled = list(actions)
        self.rng.shuffle(shuffled)
        self._root_order = sorted(shuffled, key=lambda a: -root.children[a].prior)
        deadline = None if cfg.seconds is None else time.perf_counter() + cfg.seconds
        self._dropped = set()
        if cfg.paired > 0:
            self.leads = {}
            done = self._search_paired(state, root, deadline)
        else:
            done = 0
            while self._within_budget(done, deadline):
                self._iterate(state.determinize(me, self.rng), root)
                done += 1
        self.decisions += 1
        self.total_iterations += done
        return root

    # -- the search ----------------------------------------------------------------------------

    def evaluation_version(self, game: Any) -> str:
        """Which of the game's evaluations (`Game.evaluation_versions`) leaves are judged by,
        in Python and in compiled playouts alike: the one asked for (`evaluation`, "current"
        unless the agent string or the game's `search_defaults` name another; `adopt` checks
        that the game offers it). A named baseline keeps an earlier one (agents/baselines.py)."""
        return self.config.evaluation

    def evaluate(self, state: State) -> list[float]:
        """What a leaf is worth per seat: the game's evaluation, or the earlier one a named
        baseline keeps (`evaluation_version`, `Game.evaluation_of`)."""
        return state.game.evaluation_of(self.evaluation_version(state.game), state)

    def _within_budget(self, done: int, deadline: float | None) -> bool:
        """Whether another iteration (or paired round) fits the budget after `done` playouts;
        the first always runs, so a decision never comes from no search at all."""
        if self.config.iterations is not None and done >= self.config.iterations:
            return False
        return deadline is None or not done or time.perf_counter() < deadline

    def _candidates(self, root: Node) -> list[Any]:
        """The root actions a paired search compares: the best by prior, one per distinct prior
        value (equal values are nearly always the same move: a symmetric tile turned), at least
        `min_candidates` (2; hints ask for as many as they show) when there are that many."""
        chosen: list[Any] = []
        seen: set[float] = set()
        for action in self._root_order:
            prior = root.children[action].prior
            if prior in seen:
                continue
            if self.config.distinct_priors:
                seen.add(prior)
            chosen.append(action)
            if len(chosen) == self.config.paired:
                return self._with_included(chosen)
        for action in self._root_order:
            if len(chosen) >= self.min_candidates:
                break
            if action not in chosen:
                chosen.append(action)
        return self._with_included(chosen)

    def _with_included(self, chosen: list[Any]) -> list[Any]:
        """The candidates plus the actions `search` was told to include (beyond `paired`)."""
        for action in self._include:
            if action not in chosen:
                if action not in self._root_order:
                    raise ValueError(f"included action {action!r} is not legal here")
                chosen.append(action)
        return chosen

    def _search_paired(self, state: State, root: Node, deadline: float | None) -> int:
        """Rounds of common random numbers: each round draws one determinization and one random
        stream, and every candidate is played out from them. Two moves that do not interact
        with what happens next then see the same draws and the same replies, so their
        difference is measured almost without noise; judged on independent samples, the luck
        of the draw (a few points) would swamp differences of a fraction of a point.

        With `race`, a candidate whose paired difference to the best trails by more than
        `race` standard errors stops being sampled (at least `min_candidates` stay), so the
        budget goes to the moves still in question. Not when actions are included (an
        analysis or a hint reads every candidate's estimate on the same samples)."""
        me = self._me
        candidates = self._candidates(root)
        active = list(candidates)
        mine: dict[Any, list[float]] = {action: [] for action in candidates}
        race = self.config.race if not self._include else 0.0
        unit = self.lead_unit
        done = rounds = 0
        while self._within_budget(done, deadline):
            sample_seed = self.rng.getrandbits(64)
            stream_seed = self.rng.getrandbits(64)
            # One determinization a round, copied for each candidate (drawing it again from
            # the same seed would give the same position, at the cost of a shuffle each time).
            drawn = state.determinize(me, random.Random(sample_seed))
            for action in active:
                sample = drawn.clone()
                sample.apply(action)
                returns = self._rollout(sample, random.Random(stream_seed))
                _backup((root, root.children[action]), returns)
                mine[action].append(returns[me])
                sums = self.leads.setdefault(action, [0.0] * len(self._leaf_values))
                for seat in range(len(sums)):
                    points = lead(self._leaf_values, seat)
                    sums[seat] += unit(points) if unit else points
            done += len(active)
            rounds += 1
            if (race > 0 and rounds >= RACE_FIRST and rounds % RACE_EVERY == 0
                    and len(active) > self.min_candidates):
                active = self._race(active, mine, rounds, race)
        self._samples = {action: len(values) for action, values in mine.items()}
        self._dropped = set(candidates) - set(active)
        return done

    def _race(self, active: list[Any], mine: dict[Any, list[float]], rounds: int,
              race: float) -> list[Any]:
        """The candidates still worth sampling: every active one has played all `rounds`
        rounds, so each is compared with the best on the same samples (paired differences),
        and dropped when it trails by more than `race` standard errors, the worst first,
        keeping `min_candidates`."""
        best = max(active, key=lambda action: sum(mine[action]))
        trailing = []
        for action in active:
            if action == best:
                continue
            diffs = [a - b for a, b in zip(mine[action], mine[best])]
            average = sum(diffs) / rounds
            spread = math.sqrt(sum((d - average) ** 2 for d in diffs) / (rounds - 1))
            if average + race * spread / math.sqrt(rounds) < 0:
                trailing.append((average, action))
        trailing.sort(key=lambda item: item[0])
        drop = {action for _, action in trailing[:len(active) - self.min_candidates]}
        return [action for action in active if action not in drop]

    def best_action(self, root: Node, actions: list[Action]) -> Action:
        """The action to play: the most visited (ties: the better prior); after a paired search,
        the best mean return among the candidates still sampled at its end (one dropped by the
        race trailed the best on the same samples; its mean, over fewer rounds, is noisier)."""
        children = root.children
        if self.config.paired > 0:
            me = root.player
            dropped = self._dropped
            return max(actions, key=lambda a: (
                children[a].visits > 0,
                a not in dropped,  # trailed the best on the same samples (`race`)
                children[a].totals[me] / children[a].visits if children[a].visits else 0.0,
                children[a].prior))
        return max(actions, key=lambda a: (children[a].visits, children[a].prior))

    def _set_priors(self, state: State, root: Node, actions: list[Action], me: int) -> None:
        """Root priors: the greedy one-turn value of each action, scaled to [0, 1]."""
        sample = state.determinize(me, self.rng)
        self._base = self.evaluate(sample) if self.config.centered else None
        values = []
        for action in actions:
            child = sample.clone()
            child.apply(action)
            values.append(lookahead_value(child, me, 1))
        low, high = min(values), max(values)
        span = (high - low) or 1.0
        n = state.game.num_players
        for action, value in zip(actions, values):
            child = root.children.get(action)
            if child is None:
                child = root.children[action] = Node(player=-2, totals=[0.0] * n)
                self.nodes += 1
            child.prior = (value - low) / span

    def _priors(self, state: State, actions: list[Any]) -> dict[Any, float]:
        """One-step heuristic value of each action for the player to move, scaled to [0, 1]."""
        seat = state.current_player
        values = {}
        for action in actions:
            child = state.clone()
            child.apply(action)
            values[action] = lookahead_value(child, seat, 0)
        low, high = min(values.values()), max(values.values())
        span = (high - low) or 1.0
        return {action: (value - low) / span for action, value in values.items()}

    def _iterate(self, state: State, root: Node) -> None:
        cfg = self.config
        rng = self.rng
        path = [root]
        node = root
        while not state.is_terminal:
            legal = state.legal_actions()
            node.player = state.current_player
            children = node.children
            for action in legal:
                child = children.get(action)
                if child is not None:
                    child.available += 1
            limit = math.ceil(cfg.widening * math.sqrt(node.visits + 1))
            at_root = node is root
            if at_root and cfg.root_widening > 0:
                width = math.ceil(cfg.root_widening * math.sqrt(node.visits + 1))
                known = self._root_order[:width]
            else:
                known = [a for a in legal if a in children]
            if (not at_root and len(known) < min(limit, len(legal))
                    and self.nodes < cfg.max_nodes):
                untried = [a for a in legal if a not in children]
                prior = 0.0
                if len(legal) <= cfg.ordered_expansion:
                    if node.priors is None:
                        node.priors = self._priors(state, legal)
                    action = max(untried, key=lambda a: node.priors.get(a, 0.0))  # type: ignore[union-attr]
                    prior = node.priors.get(action, 0.0)
                else:
                    action = rng.choice(untried)
                child = Node(player=-2, totals=[0.0] * len(root.totals), available=1, prior=prior)
                children[action] = child
                self.nodes += 1
                state.apply(action)
                path.append(child)
                break
            if not known:
                break
            action = self._select(node, known)
            node = children[action]
            state.apply(action)
            path.append(node)
            if node.visits == 0:
                break
        _backup(path, self._rollout(state))

    def _select(self, node: Node, known: list[Any]) -> Any:
        cfg = self.config
        player = node.player
        children = node.children
        best_action = None
        best_score = float("-inf")
        for action in known:
            child = children[action]
            if child.visits == 0:
                score = 1e9 + child.prior
            else:
                mean = child.totals[player] / child.visits
                explore = cfg.exploration * math.sqrt(math.log(max(child.available, 1)) / child.visits)
                bias = cfg.prior_weight * child.prior / (child.visits + 1)
                score = mean + explore + bias
            if score > best_score:
                best_action, best_score = action, score
        return best_action

    def _rollout(self, state: State, rng: random.Random | None = None) -> list[float]:
        cfg = self.config
        rng = rng or self.rng
        name = "greedy" if cfg.greedy_playouts else "game" if cfg.game_rollouts else "random"
        stop = PlayoutStop(self._me, cfg.rollout_plies, cfg.turn_leaves,
                           MAX_PLAYOUT * cfg.horizon, cfg.horizon)
        version = self.evaluation_version(state.game)
        # (Only a kept version is passed: a game's `playout` of before the versions takes none.)
        judged = {} if version == "current" else {"evaluation": version}
        compiled = state.game.playout(state, name, rng, stop, **judged)
        if compiled is not None:  # the game played it out without a Python step per move
            values, terminal = compiled
            self._leaf_values = list(values)
            if terminal and self._base is None:
                return rank_returns(values)
            return soft_returns(values, cfg.value_scale, self._base, cfg.objective)
        if cfg.greedy_playouts:
            policy = greedy_action
        else:
            policy = state.game.rollout_action if cfg.game_rollouts else None
        plies = 0
        turn_starts = 0  # starts of my turn met since the fixed plies

        def at_leaf() -> bool:
            nonlocal turn_starts
            if state.current_player == stop.me and state.at_turn_start:
                turn_starts += 1
            return turn_starts >= stop.turns

        while not state.is_terminal and (
                plies < stop.min_plies
                or (stop.turn_leaves and plies < stop.max_plies and not at_leaf())):
            actions = state.legal_actions()
            state.apply(policy(state, actions, rng) if policy else rng.choice(actions))
            plies += 1
        if state.is_terminal:
            # On the evaluation's scale (Queens' standings or Shogun's points are not).
            self._leaf_values = list(state.game.final_values(state))
            if self._base is None:
                return rank_returns(state.scores)
            return soft_returns(self._leaf_values, cfg.value_scale, self._base, cfg.objective)
        self._leaf_values = list(self.evaluate(state))
        return soft_returns(self._leaf_values, cfg.value_scale, self._base, cfg.objective)
