"""`memhop mcp`: serve the memory to an assistant over MCP (stdio, or loopback HTTP)."""

from __future__ import annotations

from typing import Annotated

import typer

from memhop.cli.common import DbOption, EngineOption, err, reports_errors


@reports_errors
def mcp(
    read_only: Annotated[
        bool, typer.Option("--read-only", help="Answer and look things up only: refuse remember and forget.")
    ] = False,
    http: Annotated[
        str | None,
        typer.Option(
            "--http",
            metavar="[127.0.0.1:]PORT",
            help="Serve streamable HTTP on this loopback port instead of stdio.",
            show_default=False,
        ),
    ] = None,
    host: Annotated[
        str | None,
        typer.Option(
            "--host",
            help="With --http: listen on this address instead; beyond loopback it needs $MEMHOP_MCP_TOKEN.",
            show_default=False,
        ),
    ] = None,
    db: DbOption = None,
    engine: EngineOption = None,
) -> None:
    """Serve the memory to an assistant (Claude Desktop, Cursor, Zed...) as an MCP server.

    Tools: ask, search, show, entities, remember, forget (a dry run unless told otherwise).
    Over stdio by default: the client starts this command and nothing listens on the network.

    \b
    Example:
      memhop mcp --read-only
      MEMHOP_MCP_TOKEN=... memhop mcp --http 8765 --host 0.0.0.0
    """
    from memhop.core.mcp.extra import require_mcp_extra

    require_mcp_extra()
    from memhop.core.mcp.server import build_server
    from memhop.core.mcp.service import MemoryService
    from memhop.core.mcp.transport import http_listen, serve

    listen = http_listen(http, host)
    service = MemoryService(db=db, engine=engine, read_only=read_only)
    path = service.prepare()
    mode = "read-only" if read_only else "read-write"
    where = "stdio" if listen is None else listen.url + (" (bearer token required)" if listen.token else "")
    err.print(f"memhop mcp: serving {path} ({mode}) on {where}", markup=False)
    serve(build_server(service, listen), listen)
