"""A quiet static server for dist/ on 127.0.0.1, for `serve`, the tests and the benchmarks."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from . import site
from .paths import DIST


class QuietHandler(SimpleHTTPRequestHandler):
    """Static files with explicit types for modules and WebAssembly, and no request log."""

    extensions_map = {  # noqa: RUF012  (the base class declares it a plain dict)
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".toml": "text/plain",
        ".py": "text/plain",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


class QuietServer(ThreadingHTTPServer):
    """A threading server that does not print a traceback when a browser drops a connection."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def command(name: str, args: list[str]) -> int:
    """`serve [--port N]`: build dist/, then serve it until Ctrl+C."""
    parser = argparse.ArgumentParser(prog="build.py serve",
                                     description="build dist/, then serve it on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    port = parser.parse_args(args).port
    site.build()
    serve(DIST, port)
    return 0


def make_server(directory: Path, port: int = 0) -> QuietServer:
    """An HTTP server for `directory` on 127.0.0.1 (port 0: any free port)."""
    return QuietServer(("127.0.0.1", port), partial(QuietHandler, directory=str(directory)))


def serve(directory: Path, port: int) -> None:
    """Serve `directory` until Ctrl+C, saying where."""
    with make_server(directory, port) as server:
        print(f"Serving the course at http://127.0.0.1:{server.server_port}/", flush=True)
        print("Press Ctrl+C to stop.", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print()
