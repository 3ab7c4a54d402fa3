"""Both dialects' migrations build one schema: applied to fresh databases, SQLite's and PostgreSQL's tables, columns,
keys, unique constraints and indexes are read back from each catalogue and must agree, so the two can never drift."""

from __future__ import annotations

import re
from pathlib import Path

from bot.storage.database import Database, Statement
from bot.storage.opening import open_database

Fact = tuple[str | bool | tuple[str, ...] | None, ...]
"""One thing a schema says: ("column", table, name, family, not null, default, identity), ("primary key", table,
columns), ("foreign key", table, columns, table referred to, its columns, on delete, on update), ("unique", table,
columns), ("index", table, name, columns, unique, predicate)."""

TYPE_FAMILIES = {
    "integer": "integer",
    "bigint": "integer",  # PostgreSQL's BIGINT holds Discord ids; SQLite's INTEGER is 8 bytes already
    "smallint": "integer",
    "real": "real",
    "double precision": "real",  # SQLite's REAL is an 8-byte float
    "text": "text",
    "character varying": "text",
    "varchar": "text",
    "blob": "blob",
    "bytea": "blob",
}
"""The one mapping of the dialects' intended differences, with these rules: a type is compared by its family above
(an unknown type fails the test until it is added); SQLite's INTEGER PRIMARY KEY AUTOINCREMENT is PostgreSQL's
GENERATED … AS IDENTITY; a primary key column counts as NOT NULL (PostgreSQL makes it so, SQLite does not say);
collations are not compared (PostgreSQL's COLLATE "C" on timestamps is how SQLite compares all text); defaults and
partial index predicates are compared without PostgreSQL's casts, its outer parentheses and its `= ANY (ARRAY[…])`
for `IN (…)`."""

_ACTIONS = {"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}
"""pg_constraint's one-letter foreign key actions (on delete, on update), as SQLite names them."""


def normalised(expression: str | None) -> str | None:
    """A default or predicate as both dialects write it: PostgreSQL's casts, outer parentheses and ANY (ARRAY…) gone."""
    if expression is None:
        return None
    text = re.sub(r"::[a-z ]+", "", expression)
    text = re.sub(r"= ANY \(ARRAY\[(.*?)\]\)", r"IN (\1)", text)
    while text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        text = text[1:-1]
    return " ".join(text.replace("( ", "(").replace(" )", ")").split())


def _balanced(text: str) -> bool:
    """Whether the parentheses of `text` pair up, so that ones around it may go."""
    depth = 0
    for character in text:
        depth += {"(": 1, ")": -1}.get(character, 0)
        if depth < 0:
            return False
    return depth == 0


async def sqlite_schema(database: Database) -> set[Fact]:
    """What the catalogue of a SQLite database says of its tables, as facts."""
    facts: set[Fact] = set()
    tables = await database.fetch(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    )
    for table in tables:
        name = table["name"]
        columns = await database.fetch('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)', [name])
        keys = tuple(c["name"] for c in sorted((c for c in columns if c["pk"]), key=lambda c: c["pk"]))
        for column in columns:
            identity = column["pk"] > 0 and "AUTOINCREMENT" in table["sql"].upper()
            not_null = bool(column["notnull"]) or column["name"] in keys
            family = TYPE_FAMILIES[column["type"].lower()]
            facts.add(("column", name, column["name"], family, not_null, normalised(column["dflt_value"]), identity))
        facts.add(("primary key", name, keys))
        references = await database.fetch(
            'SELECT id, "table", "from", "to", on_delete, on_update FROM pragma_foreign_key_list(?) ORDER BY id, seq',
            [name],
        )
        for number in sorted({r["id"] for r in references}):
            parts = [r for r in references if r["id"] == number]
            facts.add(
                (
                    "foreign key",
                    name,
                    tuple(r["from"] for r in parts),
                    parts[0]["table"],
                    tuple(r["to"] for r in parts),
                    parts[0]["on_delete"],
                    parts[0]["on_update"],
                )
            )
        for index in await database.fetch('SELECT name, "unique", origin FROM pragma_index_list(?)', [name]):
            info = await database.fetch("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [index["name"]])
            indexed = tuple(r["name"] for r in info)
            if index["origin"] == "u":
                facts.add(("unique", name, indexed))
            elif index["origin"] == "c":
                sql = await database.fetchval("SELECT sql FROM sqlite_master WHERE name = ?", [index["name"]])
                predicate = sql.split(" WHERE ", 1)[1] if " WHERE " in sql else None
                facts.add(("index", name, index["name"], indexed, bool(index["unique"]), normalised(predicate)))
    return facts


_PG_COLUMNS = (
    "SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity"
    " FROM information_schema.columns WHERE table_schema = 'public'"
)
_PG_CONSTRAINTS = """
SELECT c.contype::text AS contype, t.relname AS table_name,
       ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(number, position)
             JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.number ORDER BY k.position) AS columns,
       r.relname AS referred,
       ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k(number, position)
             JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.number ORDER BY k.position)
         AS referred_columns,
       c.confdeltype::text AS confdeltype, c.confupdtype::text AS confupdtype
FROM pg_constraint c
JOIN pg_class t ON t.oid = c.conrelid
JOIN pg_namespace n ON n.oid = t.relnamespace
LEFT JOIN pg_class r ON r.oid = c.confrelid
WHERE n.nspname = 'public' AND c.contype IN ('p', 'f', 'u')
"""
_PG_INDEXES = """
SELECT t.relname AS table_name, i.relname AS name, x.indisunique AS is_unique,
       ARRAY(SELECT a.attname FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(number, position)
             JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.number ORDER BY k.position) AS columns,
       pg_get_expr(x.indpred, x.indrelid) AS predicate
FROM pg_index x
JOIN pg_class i ON i.oid = x.indexrelid
JOIN pg_class t ON t.oid = x.indrelid
JOIN pg_namespace n ON n.oid = t.relnamespace
WHERE n.nspname = 'public'
  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.conrelid = x.indrelid
                  AND c.contype IN ('p', 'u'))
"""


async def postgres_schema(database: Database) -> set[Fact]:
    """What the catalogue of a PostgreSQL database says of the tables in its public schema, as facts."""
    facts: set[Fact] = set()
    keys: dict[str, tuple[str, ...]] = {}
    for constraint in await database.fetch(_PG_CONSTRAINTS):
        table, columns = constraint["table_name"], tuple(constraint["columns"])
        if constraint["contype"] == "p":
            keys[table] = columns
            facts.add(("primary key", table, columns))
        elif constraint["contype"] == "u":
            facts.add(("unique", table, columns))
        else:
            rules = (_ACTIONS[constraint["confdeltype"]], _ACTIONS[constraint["confupdtype"]])
            facts.add(
                ("foreign key", table, columns, constraint["referred"], tuple(constraint["referred_columns"]), *rules)
            )
    for column in await database.fetch(_PG_COLUMNS):
        table = column["table_name"]
        facts.add(
            (
                "column",
                table,
                column["column_name"],
                TYPE_FAMILIES[column["data_type"]],
                column["is_nullable"] == "NO",
                normalised(column["column_default"]),
                column["is_identity"] == "YES",
            )
        )
        keys.setdefault(table, ())
    facts.update(("primary key", table, ()) for table, columns in keys.items() if not columns)
    for index in await database.fetch(_PG_INDEXES):
        facts.add(
            (
                "index",
                index["table_name"],
                index["name"],
                tuple(index["columns"]),
                index["is_unique"],
                normalised(index["predicate"]),
            )
        )
    return facts


def differences(left: set[Fact], right: set[Fact], names: tuple[str, str] = ("sqlite", "postgresql")) -> list[str]:
    """Each fact only one of two schemas holds, after the name of the schema that holds it, in order."""
    return sorted(
        [f"only {names[0]}: {fact}" for fact in left - right] + [f"only {names[1]}: {fact}" for fact in right - left]
    )


async def test_both_dialects_migrate_to_one_schema(tmp_path: Path, postgres_url: str) -> None:
    sqlite, postgresql = await open_database(tmp_path / "schema.sqlite3"), await open_database(postgres_url)
    try:
        facts = await sqlite_schema(sqlite)
        assert differences(facts, await postgres_schema(postgresql)) == []
    finally:
        await sqlite.close()
        await postgresql.close()
    tables = {fact[1] for fact in facts}
    assert {"games", "seats", "actions", "shard_leases", "schema_migrations"} <= tables  # the check reads the schema
    kinds = {fact[0] for fact in facts}
    assert kinds == {"column", "primary key", "foreign key", "unique", "index"}


async def test_the_comparison_sees_a_drifted_schema(tmp_path: Path) -> None:
    """A schema with a column gone, an index gone, another index partial and a foreign key's rule changed."""
    whole = await open_database(tmp_path / "whole.sqlite3")
    drifted = await open_database(tmp_path / "drifted.sqlite3")
    try:
        await drifted.write(
            [
                Statement("ALTER TABLE seats DROP COLUMN hints"),
                Statement("DROP INDEX games_by_host"),
                Statement("DROP INDEX turn_timers_by_due"),
                Statement("CREATE INDEX turn_timers_by_due ON turn_timers (due_at) WHERE stage <> 'paused'"),
                Statement("DROP TABLE game_pauses"),
                Statement(
                    "CREATE TABLE game_pauses (game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE SET NULL,"
                    " paused_at TEXT NOT NULL)"
                ),
            ]
        )
        found = differences(await sqlite_schema(whole), await sqlite_schema(drifted), ("whole", "drifted"))
    finally:
        await whole.close()
        await drifted.close()
    assert found == [
        "only drifted: ('foreign key', 'game_pauses', ('game_id',), 'games', ('id',), 'SET NULL', 'NO ACTION')",
        "only drifted: ('index', 'turn_timers', 'turn_timers_by_due', ('due_at',), False, \"stage <> 'paused'\")",
        "only whole: ('column', 'seats', 'hints', 'integer', True, '0', False)",
        "only whole: ('foreign key', 'game_pauses', ('game_id',), 'games', ('id',), 'CASCADE', 'NO ACTION')",
        "only whole: ('index', 'games', 'games_by_host', ('host_id', 'status'), False, None)",
        "only whole: ('index', 'turn_timers', 'turn_timers_by_due', ('due_at',), False, None)",
    ]


async def test_the_comparison_sees_postgresql_drift(tmp_path: Path, postgres_url: str) -> None:
    """The PostgreSQL side is read too: a column made nullable and a unique constraint added show."""
    sqlite, postgresql = await open_database(tmp_path / "schema.sqlite3"), await open_database(postgres_url)
    try:
        await postgresql.write(
            [
                Statement("ALTER TABLE seats ALTER COLUMN hints DROP NOT NULL"),
                Statement("ALTER TABLE game_messages ADD UNIQUE (message_id)"),
            ]
        )
        found = differences(await sqlite_schema(sqlite), await postgres_schema(postgresql))
    finally:
        await sqlite.close()
        await postgresql.close()
    assert found == [
        "only postgresql: ('column', 'seats', 'hints', 'integer', False, '0', False)",
        "only postgresql: ('unique', 'game_messages', ('message_id',))",
        "only sqlite: ('column', 'seats', 'hints', 'integer', True, '0', False)",
    ]


def test_postgresql_spellings_read_as_sqlite_writes_them() -> None:
    assert normalised("(status = ANY (ARRAY['lobby'::text, 'active'::text]))") == "status IN ('lobby', 'active')"
    assert normalised("(shown_version < version)") == "shown_version < version"
    assert normalised("'x'::character varying") == "'x'"
    assert normalised("(a > 0) AND (b > 0)") == "(a > 0) AND (b > 0)"
