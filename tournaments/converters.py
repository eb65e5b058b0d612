"""The ``id`` path converter: a whole number that fits a database integer.

Django's ``int`` converter takes any number of digits, and SQLite refuses an integer beyond 64
bits with an ``OverflowError`` (a 500 for ``/gestion/feuille/<30 digits>/``). Numbers in
addresses (keys, round and table numbers) are at most 18 digits here: longer ones match no
address, so they are a plain 404 on every database.
"""

from __future__ import annotations

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
