"""Ticket to Ride: The Card Game."""
