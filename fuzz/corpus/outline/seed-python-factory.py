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


def make_ops(step):
    """Ten closures make no module: they are this function's detail."""

    def op1(x): return x + step
    def op2(x): return x + 2 * step
    def op3(x): return x + 3 * step
    def op4(x): return x + 4 * step
    def op5(x): return x + 5 * step
    def op6(x): return x + 6 * step
    def op7(x): return x + 7 * step
    def op8(x): return x + 8 * step
    def op9(x): return x + 9 * step
    def op10(x): return x + 10 * step
    return [op1, op2, op3, op4, op5, op6, op7, op8, op9, op10]


match sys.platform:
    case "win32":
        class Console:
            encoding = "mbcs"
    case _:
        class Console:
            encoding = "utf-8"

for name in ("a", "b"):
    LAST_NAME = name
