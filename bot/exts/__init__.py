"""Cogs: the lobby shared by all games, and one package per game."""
