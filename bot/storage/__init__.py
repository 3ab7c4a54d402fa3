"""SQLite storage: one file, numbered migrations, one transaction per accepted change."""
