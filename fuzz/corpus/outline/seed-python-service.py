#!/usr/bin/env python3
"""User service: loads and caches users."""
from __future__ import annotations

import asyncio
import logging as log
from dataclasses import dataclass, field
from typing import Generic, Optional, TypeVar

T = TypeVar("T")
DEFAULT_TIMEOUT = 30  # seconds
_cache = {}
try:
    STDIN_FILENO = sys.stdin.fileno()
except (AttributeError, OSError):
    STDIN_FILENO = 0


@dataclass(frozen=True)
class User:
    """A user record."""

    id: int
    name: str = "anonymous # not a comment"
    tags: list[str] = field(default_factory=list)

    @property
    def display(self) -> str:
        return f"{self.name}#{self.id}"


class Repository(Generic[T]):
    class NotFound(KeyError):
        pass

    def __init__(self, items: Optional[dict[int, T]] = None) -> None:
        self._items = items or {}

    def get(self, key: int) -> T:
        try:
            return self._items[key]
        except KeyError as e:
            raise self.NotFound(key) from e

    @staticmethod
    def empty() -> "Repository[T]":
        return Repository()

    async def refresh(self, *, timeout: float = DEFAULT_TIMEOUT) -> int:
        await asyncio.sleep(0)
        return len(self._items)


def load_users(path: str,
               limit: int = 100) -> list[User]:
    # Parse one user per line.
    users = []
    with open(path) as f:
        for line in f:
            users.append(User(len(users), line.strip()))
    return users[:limit]


@log.catch
async def main() -> None:
    repo = Repository[User]()
    print(await repo.refresh())


if __name__ == "__main__":
    asyncio.run(main())
