"""The MCP server's own dependency (the `mcp` extra): memhop itself runs without it, so
`memhop mcp` checks for it first and says what to install, in one line."""

from __future__ import annotations

import importlib

from memhop.core.errors import MemhopError

INSTALL_HINT = "pip install 'memhop[mcp]'"


class MissingMcpExtra(MemhopError):
    """The `mcp` SDK is not installed."""

    exit_code = 2


def require_mcp_extra() -> None:
    """Raise MissingMcpExtra before anything starts if the SDK cannot be imported."""
    try:
        importlib.import_module("mcp.server.mcpserver")
    except ImportError:
        raise MissingMcpExtra(f"memhop mcp needs the mcp SDK, not installed: {INSTALL_HINT}") from None
