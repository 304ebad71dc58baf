"""Bots: players the computer plays. Each decides from its seat's view and legal actions only.

>>> from carioca.bots import Bot, RandomBot
>>> isinstance(RandomBot(1), Bot)
True
"""

from .random_bot import Bot, Buyer, RandomBot

__all__ = ["Bot", "Buyer", "RandomBot"]
