"""Example bots for the arena (``python -m sim.arena --players examples.greedy_bot:choose,easy``)."""
