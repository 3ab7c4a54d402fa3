"""Fixtures for every test: a throwaway PostgreSQL server and a fresh database on it (see tests/postgres.py)."""

from tests.postgres import postgres_server, postgres_url

__all__ = ["postgres_server", "postgres_url"]
