"""How `memhop mcp` is reached: stdio (what desktop clients launch; no listener at all) or
streamable HTTP on loopback. Listening beyond this machine is an explicit choice (--host)
and then needs a bearer token from the environment: a memory is private."""

from __future__ import annotations

import hmac
import ipaddress
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memhop.core.errors import ConfigError

if TYPE_CHECKING:
    from mcp.server.auth.provider import AccessToken
    from mcp.server.mcpserver import MCPServer

TOKEN_VARIABLE = "MEMHOP_MCP_TOKEN"
LOOPBACK_NAMES = ("localhost",)
MCP_PATH = "/mcp"


@dataclass(frozen=True)
class HttpListen:
    """Where to listen, and the token every request must carry (None: loopback, no token set)."""

    host: str
    port: int
    token: str | None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}{MCP_PATH}"


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_and_port(option: str, address: str) -> tuple[str, int]:
    """`[HOST:]PORT` (HOST 127.0.0.1 when not given); ConfigError naming `option` otherwise."""
    host, _, port = address.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"{option} {address!r}: expected PORT or 127.0.0.1:PORT")
    return host.strip("[]") or "127.0.0.1", int(port)


def http_listen(http: str | None, host: str | None = None, environ: dict[str, str] | None = None) -> HttpListen | None:
    """`--http [HOST:]PORT` (HOST loopback) and `--host H` as a listen address, None for stdio.
    ConfigError for a non-loopback HOST given through --http, --host without --http, or a
    --host beyond loopback without a token set."""
    if http is None:
        if host is not None:
            raise ConfigError("--host needs --http PORT (stdio has no address)")
        return None
    given_host, port = host_and_port("--http", http)
    if not is_loopback(given_host):
        raise ConfigError(f"--http {http!r}: only a loopback address; to listen on {given_host}, pass --host {given_host}")
    token = (environ if environ is not None else os.environ).get(TOKEN_VARIABLE) or None
    if host is not None and not is_loopback(host) and token is None:
        raise ConfigError(f"--host {host}: listening beyond this machine needs a bearer token in ${TOKEN_VARIABLE}")
    return HttpListen(host=host or given_host, port=port, token=token)


class StaticToken:
    """The SDK's token verifier for one shared secret, compared in constant time."""

    def __init__(self, token: str) -> None:
        self._token = token

    async def verify_token(self, token: str) -> AccessToken | None:
        from mcp.server.auth.provider import AccessToken

        if hmac.compare_digest(token.encode("utf-8"), self._token.encode("utf-8")):
            return AccessToken(token=token, client_id="memhop", scopes=[])
        return None


def serve(server: MCPServer[Any], listen: HttpListen | None) -> None:
    """Run until the client disconnects (stdio) or the process is stopped (HTTP). A token,
    when set, was given to the server when it was built (`build_server(..., listen)`)."""
    if listen is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host=listen.host, port=listen.port, streamable_http_path=MCP_PATH)
