"""Storage behind one interface: SQLite (one file, the embedded default) or PostgreSQL (several processes)."""
