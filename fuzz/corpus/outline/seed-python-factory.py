"""Handlers built at run time: a class factory, a decorator and a test double."""
import functools


def retry(times: int = 3):
    """Retries the decorated call; its wrapper is detail, not API."""

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for _ in range(times - 1):
                try:
                    return func(*args, **kwargs)
                except OSError:
                    continue
            return func(*args, **kwargs)

        return wrapper

    return decorate


def make_handler(base, prefix: str):
    """Builds a handler class for one route prefix."""

    class Handler(base):
        route = prefix

        def get(self, path: str) -> bytes:
            return self.fetch(prefix + path)

        async def post(self, path: str, body: bytes) -> int:
            def encode(chunk):
                return chunk.hex()

            return await self.send(prefix + path, encode(body))

    Handler.__name__ = f"Handler_{prefix.strip('/')}"
    return Handler


class Service:
    def __init__(self, backend):
        def on_close():
            backend.flush()

        self.backend = backend
        self.on_close = on_close

    def fake(self):
        class FakeBackend:
            def flush(self) -> None:
                pass

        return FakeBackend()

    def render(self, rows):
        for row in rows:
            # Redefined for each row: its pattern holds the row's key.
            class RowHighlighter(Highlighter):
                highlights = [row.key]

            yield RowHighlighter()(row)
