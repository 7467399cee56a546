"""The socket side of `memhop serve`: a Unix socket beside the store (mode 0600: its owner
only) and, when asked, a loopback port where every request carries a token; JSON lines in
and out (core/serve_protocol.py), one thread per connection.

One server per store: it holds an exclusive flock on `<socket>.lock` while it runs, so a
second one refuses to start, and a socket file left by a killed server is replaced.
SIGTERM and SIGINT stop it; the socket file is removed on the way out.
"""

from __future__ import annotations

import errno
import fcntl
import hmac
import logging
import os
import signal
import socket
import socketserver
import stat
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType
from typing import Any

from memhop.core.errors import ConfigError, MemhopError
from memhop.core.mcp.transport import host_and_port, is_loopback
from memhop.core.serve_protocol import PROTOCOL, fits, receive, send

log = logging.getLogger("memhop")
TOKEN_VARIABLE = "MEMHOP_SERVE_TOKEN"
MAX_REQUEST = 1 << 20  # bytes: a question and its options; a longer line is dropped unread

# (question, ask's keyword options, how to render) -> what `ask` would print
Respond = Callable[[str, dict[str, Any], dict[str, Any]], str]


class ServeError(MemhopError):
    """The server cannot start: another one serves this store, or the socket cannot be made."""


class _Stop(BaseException):
    """Raised in the main thread by SIGTERM / SIGINT to leave serve_forever. Not an
    Exception: socketserver reports and swallows those when they interrupt the dispatch of
    a request (starting its thread), and the server would go on serving."""


@dataclass(frozen=True)
class Tcp:
    """Where to listen besides the socket (loopback only), and the token a request there carries."""

    host: str
    port: int
    token: str


def tcp_listen(address: str | None, environ: Mapping[str, str] | None = None) -> Tcp | None:
    """`--tcp [127.0.0.1:]PORT` as a loopback address with the token from $MEMHOP_SERVE_TOKEN;
    ConfigError for another address or no token (anyone on this machine can reach a port)."""
    if address is None:
        return None
    host, port = host_and_port("--tcp", address)
    if not is_loopback(host):
        raise ConfigError(f"--tcp {address!r}: only a loopback address (this machine); use the Unix socket otherwise")
    token = (os.environ if environ is None else environ).get(TOKEN_VARIABLE) or None
    if token is None:
        raise ConfigError(f"--tcp: every local user can reach a port; set ${TOKEN_VARIABLE} to the token requests must carry")
    return Tcp(host, port, token)


def listen(
    path: Path,
    respond: Respond,
    fingerprint: Callable[[], str],
    warm_up: Callable[[], None],
    ready: Callable[[], None],
    tcp: Tcp | None = None,
) -> None:
    """Answer requests on a Unix socket at `path` (and on `tcp`) until SIGTERM or SIGINT.
    `fingerprint()` is the server's own, computed per request (a client with another one is
    turned away); `warm_up()` runs once this is the store's only server, `ready()` once it
    accepts requests."""
    if not fits(path):
        raise ServeError(f"{path}: too long for a Unix socket; move the store to a shorter path")
    answering = _Answering(respond, fingerprint)
    with _only_server(path), _stop_on_signals():
        try:
            warm_up()
            with _listening(path, answering) as server, _on_tcp(tcp, answering):
                ready()
                server.serve_forever(poll_interval=0.2)
        except _Stop:  # the socket is gone by now: _listening removed it on the way out
            pass


@dataclass(frozen=True)
class _Answering:
    respond: Respond
    fingerprint: Callable[[], str]
    token: str | None = None  # what a request must carry (None: the socket's mode is the guard)


class _UnixServer(socketserver.ThreadingUnixStreamServer):
    daemon_threads = True  # a request still running at shutdown is dropped; its client answers by itself
    block_on_close = False

    def __init__(self, path: Path, answering: _Answering) -> None:
        self.answering = answering
        super().__init__(str(path), _Connection)


class _TcpServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, tcp: Tcp, answering: _Answering) -> None:
        self.answering = replace(answering, token=tcp.token)
        self.address_family = socket.AF_INET6 if ":" in tcp.host else socket.AF_INET
        super().__init__((tcp.host, tcp.port), _Connection)


class _Connection(socketserver.StreamRequestHandler):
    server: _UnixServer | _TcpServer
    timeout = 60  # seconds a client may take to send its request or read a reply; not the answering

    def handle(self) -> None:
        try:
            request = receive(self.rfile, MAX_REQUEST)
            if request is None:
                return
            reason = self._refusal(request)
            send(self.wfile, {"accepted": reason is None, **({"reason": reason} if reason else {})})
            if reason is None:
                send(self.wfile, self._answer(request))
        except OSError:  # the client went away (it gave up waiting, or was stopped): nothing to tell it
            return

    def _refusal(self, request: dict[str, Any]) -> str | None:
        answering = self.server.answering
        if answering.token is not None and not hmac.compare_digest(
            str(request.get("token", "")).encode("utf-8"), answering.token.encode("utf-8")
        ):
            return "a token is needed here, and this is not it"
        if request.get("protocol") != PROTOCOL:
            return f"protocol {request.get('protocol')!r}, this server speaks {PROTOCOL}"
        if not isinstance(request.get("question"), str):
            return "no question"
        if "fingerprint" not in request:
            return None  # a script: answered with the server's settings
        try:
            ours = answering.fingerprint()
        except MemhopError as exc:  # the settings file went bad since the server started
            return f"settings: {exc}"
        if request["fingerprint"] != ours:
            return "other settings, code or environment than the client's"
        return None

    def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            output = self.server.answering.respond(
                request["question"], dict(request.get("options") or {}), dict(request.get("render") or {})
            )
        except MemhopError as exc:
            return {"error": str(exc), "exit_code": exc.exit_code}
        except Exception as exc:  # noqa: BLE001 - a bug must not stop the server; the client answers by itself
            log.exception("memhop serve: a request failed")
            return {"failed": f"{type(exc).__name__}: {exc}"}
        return {"output": output}


@contextmanager
def _only_server(path: Path) -> Iterator[None]:
    """Hold `<socket>.lock` exclusively for as long as this server runs."""
    target = path.with_name(path.name + ".lock")
    old_umask = os.umask(0o077)
    try:
        fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise ServeError(f"{target}: cannot create the server's lock file ({exc.strerror})") from None
    finally:
        os.umask(old_umask)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            holder = f" (pid {pid})" if pid.isdigit() else ""
            raise ServeError(f"{path}: a memhop server already serves this store{holder}") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
        os.ftruncate(fd, 0)
    finally:
        os.close(fd)


@contextmanager
def _listening(path: Path, answering: _Answering) -> Iterator[_UnixServer]:
    """The socket at `path`, readable and writable by its owner only; a socket file a dead
    server left there is replaced (nothing else is: a file of another kind is an error)."""
    _remove_stale(path)
    old_umask = os.umask(0o177)  # the socket is created 0600, never briefly wider
    try:
        server = _UnixServer(path, answering)
    except OSError as exc:
        raise ServeError(f"{path}: cannot listen there ({exc.strerror})") from None
    finally:
        os.umask(old_umask)
    made = os.stat(path)
    try:
        os.chmod(path, 0o600)
        yield server
    finally:
        server.server_close()
        try:
            if os.stat(path).st_ino == made.st_ino:
                os.unlink(path)
        except FileNotFoundError:
            pass


@contextmanager
def _on_tcp(tcp: Tcp | None, answering: _Answering) -> Iterator[None]:
    """Serve `tcp` too, from a thread of its own, for as long as the block runs."""
    if tcp is None:
        yield
        return
    try:
        server = _TcpServer(tcp, answering)
    except OSError as exc:
        raise ServeError(f"--tcp {tcp.host}:{tcp.port}: cannot listen there ({exc.strerror})") from None
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()


def _remove_stale(path: Path) -> None:
    """Called holding the server lock: a socket found here has no live server behind it."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(found.st_mode):
        raise ServeError(f"{path}: exists and is not a memhop socket; remove it to serve this store")
    try:
        os.unlink(path)
    except OSError as exc:
        if exc.errno != errno.ENOENT:
            raise ServeError(f"{path}: cannot remove the stale socket ({exc.strerror})") from None


@contextmanager
def _stop_on_signals() -> Iterator[None]:
    """SIGTERM and SIGINT end serve_forever in the main thread, so cleanup runs."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals go to the main thread only; whoever runs us there stops us otherwise
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        raise _Stop

    saved = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
