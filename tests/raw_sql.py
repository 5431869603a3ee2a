"""Plain SQL on a Run store's database, as another program (or an attacker) would write it."""

from __future__ import annotations

import sqlite3
from typing import Any


class Sql:
    """Plain SQL on a store's database, as another program (or an attacker) would write it."""

    def __init__(self, url: str) -> None:
        self.url = url

    def run(self, *statements: tuple[str, tuple[Any, ...]]) -> list[Any]:
        rows: list[Any] = []
        if self.url.startswith("sqlite:"):
            connection = sqlite3.connect(self.url[len("sqlite:///") :], isolation_level=None)
            try:
                for sql, params in statements:
                    rows = connection.execute(sql, params).fetchall()
            finally:
                connection.close()
            return rows
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            for sql, params in statements:
                cursor = connection.execute(sql.replace("?", "%s"), params)
                rows = cursor.fetchall() if cursor.description is not None else []
        return rows
