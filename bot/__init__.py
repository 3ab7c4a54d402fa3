"""The Discord bot: the only package that touches discord.py, SQLite, the clock and the network."""
