"""A module that registers an agent when imported: what `--import` of the command line and of
benchmarks/match.py loads."""

import boardwright as bw
from plugin_agents import FirstLegalAgent

bw.register_agent("first", FirstLegalAgent, parameters={"last": bool})
