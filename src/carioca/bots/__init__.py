"""Bots: players the computer plays. Each decides from its seat's view and legal actions only.

>>> from carioca.bots import Bot, RandomBot
>>> isinstance(RandomBot(1), Bot)
True
"""

from .greedy import GreedyBot
from .lookahead import LookaheadBot
from .random_bot import Bot, Buyer, RandomBot

__all__ = ["Bot", "Buyer", "GreedyBot", "LookaheadBot", "RandomBot"]

from .levels import BOTS, BotSpec, EagerBot, make_bot  # noqa: E402
from .search import SearchBot  # noqa: E402

__all__ += ["SearchBot", "BOTS", "BotSpec", "EagerBot", "make_bot"]
