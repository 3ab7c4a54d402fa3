"""Cogs: the lobby, the commands several games share (play), one package per game, and the admins' commands."""
