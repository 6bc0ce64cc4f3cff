"""Peasant networks: connection to controlled castles (SHO-RECR-03) and chains (SHO-CHAIN).

Pure functions of the map's neighbour lists and a per-space owner array, so the state, the
tests and the property checks (chains recomputed from scratch) share one implementation.
Spaces are map indexes; `peasant[s]` is the seat of the ordinary peasant on s, or -1.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterable, Sequence

Neighbours = Sequence[Sequence[int]]
PATH_CAP = 64  # shortest paths listed per castle pair
COMBINATION_CAP = 4096  # choices explored when several pairs have equal shortest chains


def connected(neighbours: Neighbours, peasant: Sequence[int], seat: int,
              castles: Iterable[int]) -> set[int]:
    """The spaces of `seat`'s ordinary peasants joined to one of its controlled castles
    through adjacent network spaces (SHO-RECR-03). Court markers are no part of a network
    (SHO-RECR-05): `castles` lists controlled castle spaces only."""
    seen: set[int] = set()
    stack = list(castles)
    visited = set(stack)
    while stack:
        here = stack.pop()
        for near in neighbours[here]:
            if near not in visited and peasant[near] == seat:
                visited.add(near)
                seen.add(near)
                stack.append(near)
    return seen


def cut_off(neighbours: Neighbours, peasant: Sequence[int], seat: int,
            castles: Iterable[int]) -> list[int]:
    """Spaces of `seat`'s ordinary peasants that are not connected, in space order."""
    linked = connected(neighbours, peasant, seat, castles)
    return [s for s, owner in enumerate(peasant) if owner == seat and s not in linked]


def shortest_chains(neighbours: Neighbours, nodes: set[int], a: int, b: int) -> list[frozenset[int]]:
    """The intermediate spaces of every shortest path from castle `a` to castle `b` whose
    inner spaces all hold the player's ordinary peasants (`nodes`), SHO-CHAIN-07/09. Empty
    when no such path exists; a path of direct neighbours has no peasant and scores nothing.
    At most PATH_CAP paths are listed."""
    dist = {a: 0}
    frontier = [a]
    found = False
    while frontier and not found:
        nxt: list[int] = []
        for here in frontier:
            for near in neighbours[here]:
                if near == b:
                    found = True
                elif near in nodes and near not in dist:
                    dist[near] = dist[here] + 1
                    nxt.append(near)
        frontier = nxt
    if not found:
        return []
    # Walk back from b over spaces one step closer to a each time.
    last = [s for s in neighbours[b] if s in dist and (s == a or s in nodes)]
    depth = min(dist[s] for s in last)
    out: list[frozenset[int]] = []

    def walk(here: int, path: list[int]) -> None:
        if len(out) >= PATH_CAP:
            return
        if here == a:
            out.append(frozenset(path))
            return
        path.append(here)
        for near in neighbours[here]:
            if near in dist and dist[near] == dist[here] - 1:
                walk(near, path)
        path.pop()

    for start in last:
        if dist[start] == depth:
            walk(start, [])
    return sorted(set(out), key=sorted)


def chain_vp(neighbours: Neighbours, peasant: Sequence[int], seat: int,
             castles: Sequence[int]) -> int:
    """Chain points of `seat` (SHO-CHAIN-01..09): the peasants of `chain_spaces`."""
    return len(chain_spaces(neighbours, peasant, seat, castles))


def chain_spaces(neighbours: Neighbours, peasant: Sequence[int], seat: int,
                 castles: Sequence[int]) -> frozenset[int]:
    """The peasants that score for `seat` (SHO-CHAIN-01..09): for each pair of its controlled
    castles the shortest chains are found, one is chosen per pair so that the union of counted
    peasants is as large as possible, and each peasant counts once. The table marks them."""
    if len(castles) < 2:
        return frozenset()
    nodes = {s for s, owner in enumerate(peasant) if owner == seat}
    if not nodes:
        return frozenset()
    fixed: set[int] = set()
    options: list[list[frozenset[int]]] = []
    for a, b in combinations(sorted(castles), 2):
        chains = [c for c in shortest_chains(neighbours, nodes, a, b) if c]
        if len(chains) == 1:
            fixed |= chains[0]
        elif chains:
            options.append(chains)
    if not options:
        return frozenset(fixed)
    options.sort(key=len)
    best = [frozenset(fixed)]
    tried = [0]

    def search(k: int, union: frozenset[int]) -> None:
        if tried[0] >= COMBINATION_CAP:
            return
        if k == len(options):
            tried[0] += 1
            if len(union) > len(best[0]):
                best[0] = union
            return
        for chain in options[k]:
            search(k + 1, union | chain)

    search(0, frozenset(fixed))
    if tried[0] >= COMBINATION_CAP:  # too many ties to try them all: add greedily
        union = set(fixed)
        for chains in options:
            union |= max(chains, key=lambda c: len(c - union))
        if len(union) > len(best[0]):
            best[0] = frozenset(union)
    return best[0]
