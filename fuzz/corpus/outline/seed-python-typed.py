"""Typed helpers: overloads and properties."""
from __future__ import annotations

from typing import overload


@overload
def parse(value: str) -> int: ...
@overload
def parse(value: bytes, *, encoding: str = "utf-8") -> int: ...
def parse(value, *, encoding="utf-8"):
    if isinstance(value, bytes):
        value = value.decode(encoding)
    return int(value)


class Window:
    def __init__(
        self,
        width: int,
        height: int,
        *,
        title: str | None = None,
    ) -> None:
        self._width = width
        self._height = height
        self.title = title

    @property
    def width(self) -> int:
        return self._width

    @width.setter
    def width(self, value: int) -> None:
        self._width = value

    def resize(self, width: int, height: int) -> None:
        self._width, self._height = width, height


def read_items(
    skip: Annotated[int, Query(ge=0, description="How many items to skip, from the first")] = 0,
    limit: Annotated[Optional[int], Query(le=100, description="At most this many items [1, 100]")] = None,
    tags: Annotated[list[str], Query(alias="tag", description="Only items with one of these tags")] = [],
    user: typing.Annotated[User, Depends(current_user)] = None,
) -> list[Item]:
    return []


# Several names bound at once: every one is API.
MIN_WIDTH, MAX_WIDTH = 80, 3840
DEFAULT_WIDTH = DEFAULT_HEIGHT = 1024
(ALIGN_LEFT, ALIGN_RIGHT) = ("left", "right")
first_width, *other_widths = (MIN_WIDTH, MAX_WIDTH)


class Viewport:
    origin_x = origin_y = 0
    width, height = DEFAULT_WIDTH, DEFAULT_HEIGHT
    _cache, cached = {}, False
