"""`memhop mcp` at the command line: the missing extra, where it may listen, the token."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memhop.cli.app import app
from memhop.core.errors import ConfigError
from memhop.core.mcp.transport import TOKEN_VARIABLE, http_listen

WITHOUT_SDK = "import sys; sys.modules['mcp'] = None; sys.argv[0] = 'memhop'; from memhop.cli.app import main; main()"
TOKEN = "correct horse battery staple"


@pytest.mark.slow
def test_without_the_sdk_it_is_one_line_naming_the_extra(home: Path) -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT_SDK, "mcp"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["Error: memhop mcp needs the mcp SDK, not installed: pip install 'memhop[mcp]'"]
    assert done.stdout == "" and not home.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--http", "0.0.0.0:8765"], "--http '0.0.0.0:8765': only a loopback address; to listen on 0.0.0.0, pass --host 0.0.0.0"),
        (["--http", "8765", "--host", "0.0.0.0"], f"--host 0.0.0.0: listening beyond this machine needs a bearer token in ${TOKEN_VARIABLE}"),
        (["--host", "127.0.0.1"], "--host needs --http PORT (stdio has no address)"),
        (["--http", "localhost:http"], "--http 'localhost:http': expected PORT or 127.0.0.1:PORT"),
    ],
)
def test_it_listens_beyond_loopback_only_when_told_and_given_a_token(
    runner: CliRunner, home: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.delenv(TOKEN_VARIABLE, raising=False)
    result = runner.invoke(app, ["mcp", *args])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"Error: {message}"
    assert not home.exists()  # refused before any store is created


def test_listen_addresses() -> None:
    assert http_listen(None) is None
    local = http_listen("8765", environ={})
    assert local is not None and (local.host, local.port, local.token, local.url) == ("127.0.0.1", 8765, None, "http://127.0.0.1:8765/mcp")
    ipv6 = http_listen("[::1]:8765", environ={})
    assert ipv6 is not None and ipv6.url == "http://[::1]:8765/mcp"
    anywhere = http_listen("8765", "0.0.0.0", environ={TOKEN_VARIABLE: TOKEN})
    assert anywhere is not None and (anywhere.host, anywhere.token) == ("0.0.0.0", TOKEN)
    with pytest.raises(ConfigError):
        http_listen("8765", "192.168.1.20", environ={TOKEN_VARIABLE: ""})


def test_a_read_only_server_needs_a_store_to_exist(runner: CliRunner, home: Path) -> None:
    result = runner.invoke(app, ["mcp", "--read-only"])
    assert result.exit_code == 1
    assert "no memhop store at" in result.stderr and not home.exists()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def http_server(home: Path) -> Iterator[str]:
    """`memhop mcp --http` with a token set, until the test ends; its URL."""
    port = _free_port()
    env = {**os.environ, TOKEN_VARIABLE: TOKEN}
    command = [sys.executable, "-m", "memhop", "mcp", "--http", f"127.0.0.1:{port}"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        assert process.poll() is None, process.communicate()[1]
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.communicate(timeout=30)


@pytest.mark.slow
def test_http_needs_the_bearer_token_when_one_is_set(http_server: str) -> None:
    pytest.importorskip("mcp", reason="the mcp extra is not installed")
    import anyio
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"Accept": "application/json, text/event-stream"}
    assert httpx2.post(http_server, json=hello, headers=headers).status_code == 401
    wrong = {**headers, "Authorization": "Bearer not-it"}
    assert httpx2.post(http_server, json=hello, headers=wrong).status_code == 401

    async def tools() -> set[str]:
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}) as client,
            streamable_http_client(http_server, http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return {tool.name for tool in (await session.list_tools()).tools}

    assert anyio.run(tools) == {"ask", "search", "show", "entities", "remember", "forget"}
