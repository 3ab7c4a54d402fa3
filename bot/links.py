"""Links into Discord, which the services (a notification) and the ui (a pointer to a game) both write."""


def jump_link(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """A link that opens a channel, or a message in it, in Discord."""
    place = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return place if message_id is None else f"{place}/{message_id}"
