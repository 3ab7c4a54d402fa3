"""The bot's own web server: health and metrics for its operator, and the live board pages when they are on."""
