"""HeroCard: Rise of the Shogun: content data (map, hero decks, missions, treasures) and its
loaders. The rules of play build on these and on the HeroCard duel system in
`boardwright.duel`; the game is not registered until they exist.
"""
