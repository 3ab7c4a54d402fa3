"""Discord components shared by every game: the custom id grammar, persistent items, private replies."""
