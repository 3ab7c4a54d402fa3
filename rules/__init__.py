"""Pure game engines: the truth of each game. Standard library and pydantic only."""
