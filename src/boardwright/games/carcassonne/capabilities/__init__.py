"""Expansion capabilities: modules that plug rules into the base game's turn flow.

The base state calls a fixed set of hooks at fixed points of a turn; a capability overrides
the hooks it needs. The base game never tests which expansion is on: it asks its
capabilities. See `base.Capability` for the hooks and when they run.
"""

from boardwright.games.carcassonne.capabilities.base import Capability

__all__ = ["Capability"]
