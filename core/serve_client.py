"""The client side of `memhop serve`, for `memhop ask`: find the server of a store and
have it answer, or say there is none so `ask` answers by itself.

Anything short of a reply from a live server with the client's own fingerprint means "no
server": no socket file, a socket left by a dead server (refused at once), one owned by
another user, a server that does not accept within ACCEPT_TIMEOUT (stopped, or stuck), a
connection closed before the reply. None of them is an error: the answer is the same
either way, only slower.
"""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memhop.core.errors import MemhopError
from memhop.core.serve_protocol import PROTOCOL, code_stamp, fingerprint, fits, receive, send, socket_path

if TYPE_CHECKING:
    from memhop.core.config import Settings

ACCEPT_TIMEOUT = 3.0  # seconds for a live server to take a request (it does so before any work)


class ServedError(MemhopError):
    """A memhop error the server met answering (a bad --since, a missing store): reported
    by `ask` with the message and exit code it would have had without the server."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass(frozen=True)
class WarmServer:
    """A socket that may have a server of this store behind it."""

    path: Path
    fingerprint: str

    @classmethod
    def find(cls, settings: Settings) -> WarmServer | None:
        """The socket of the store `settings` name, if a file owned by this user is there."""
        path = socket_path(settings.db)
        if not fits(path):
            return None
        try:
            found = os.stat(path)
        except OSError:
            return None
        if not stat.S_ISSOCK(found.st_mode) or found.st_uid != os.getuid():
            return None
        return cls(path, fingerprint(settings, code_stamp()))

    def ask(self, question: str, options: Mapping[str, Any], render: Mapping[str, Any]) -> str | None:
        """What `ask` prints for `question`, or None when no server answered (answer by
        yourself). ServedError for a memhop error the server reported."""
        request = {"protocol": PROTOCOL, "fingerprint": self.fingerprint, "question": question,
                   "options": dict(options), "render": dict(render)}
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(ACCEPT_TIMEOUT)
            try:
                sock.connect(str(self.path))
                stream = sock.makefile("rwb")
                send(stream, request)
                accepted = receive(stream)
                if accepted is None or accepted.get("accepted") is not True:
                    return None
                sock.settimeout(None)  # accepted: the answer takes what it takes, as without a server
                reply = receive(stream)
            except OSError:  # refused (a dead server's socket), timed out, reset
                return None
        if reply is None or "failed" in reply:
            return None
        if "error" in reply:
            raise ServedError(str(reply["error"]), int(reply.get("exit_code", 1)))
        output = reply.get("output")
        return output if isinstance(output, str) else None
