"""`memhop mcp` through the protocol, as an assistant's client sees it: the server runs as a
subprocess (`python -m memhop mcp`) and the SDK's stdio client talks to it. One read-write
server and one --read-only server on the same store serve the whole module."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed")

from anyio.from_thread import BlockingPortal, start_blocking_portal  # noqa: E402
from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

pytestmark = pytest.mark.slow  # two server processes

FLATMATE = "My flatmate Tomás plays the cello."
SISTER = "Tomás's sister Inês is a vet."
QUESTION = "What does my flatmate's sister do?"
TOOLS = {"ask", "search", "show", "entities", "remember", "forget"}


@dataclass
class Client:
    """A connected session, called from synchronous tests through the portal's event loop."""

    portal: BlockingPortal
    session: ClientSession

    def call(self, tool: str, progress: list[tuple[float, float | None]] | None = None, **arguments: Any) -> Any:
        async def record(done: float, total: float | None, message: str | None) -> None:
            assert progress is not None
            progress.append((done, total))

        async def call() -> Any:
            return await self.session.call_tool(tool, arguments, progress_callback=record if progress is not None else None)

        return self.portal.call(call)

    def ok(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = self.call(tool, **arguments)
        assert not result.is_error, result.content
        data: dict[str, Any] = result.structured_content
        return data

    def refused(self, tool: str, **arguments: Any) -> str:
        result = self.call(tool, **arguments)
        assert result.is_error
        text: str = result.content[0].text
        return text

    def resource(self, uri: str) -> dict[str, Any]:
        result = self.portal.call(self.session.read_resource, uri)
        data: dict[str, Any] = json.loads(result.contents[0].text)
        return data


@asynccontextmanager
async def _connected(home: Path, *flags: str) -> AsyncIterator[ClientSession]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("MEMHOP_DB", "MEMHOP_ENGINE", "OPENAI_"))}
    env["MEMHOP_HOME"] = str(home)
    params = StdioServerParameters(command=sys.executable, args=["-m", "memhop", "mcp", *flags], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@pytest.fixture(scope="module")
def portal() -> Iterator[BlockingPortal]:
    with start_blocking_portal() as running:
        yield running


@pytest.fixture(scope="module")
def store_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mcp-home")


@pytest.fixture(scope="module")
def server(portal: BlockingPortal, store_home: Path) -> Iterator[Client]:
    with portal.wrap_async_context_manager(_connected(store_home)) as session:
        yield Client(portal, session)


@pytest.fixture(scope="module")
def read_only(portal: BlockingPortal, store_home: Path, remembered: list[dict[str, Any]]) -> Iterator[Client]:
    """A second server on the same store, started after the notes are in: the read-write one
    holds the file only while a call runs, so both can serve it."""
    with portal.wrap_async_context_manager(_connected(store_home, "--read-only")) as session:
        yield Client(portal, session)


@pytest.fixture(scope="module")
def remembered(server: Client) -> list[dict[str, Any]]:
    progress: list[tuple[float, float | None]] = []
    first = server.call("remember", progress=progress, text=FLATMATE)
    assert not first.is_error, first.content
    second = server.ok("remember", text=SISTER, speaker="me", date="2026-11-30")
    return [{**first.structured_content, "progress": progress}, second]


def test_lists_the_tools_with_schemas_and_descriptions(server: Client) -> None:
    listed = {tool.name: tool for tool in server.portal.call(server.session.list_tools).tools}
    assert set(listed) == TOOLS
    assert all(len(tool.description or "") > 80 for tool in listed.values())
    assert listed["ask"].input_schema["required"] == ["question"]
    assert listed["remember"].input_schema["required"] == ["text"]
    assert "ctx" not in listed["remember"].input_schema["properties"]
    assert listed["forget"].input_schema["properties"]["dry_run"]["default"] is True
    assert listed["ask"].annotations is not None and listed["ask"].annotations.read_only_hint
    assert listed["forget"].annotations is not None and listed["forget"].annotations.destructive_hint


def test_remember_stores_each_note_and_writes_it_reporting_progress(remembered: list[dict[str, Any]]) -> None:
    first, second = remembered
    assert first["status"] == second["status"] == "imported"
    assert second["source"].startswith("note 2026-11-30T00:00:00 ")
    assert first["written"]["sessions"] == 1 and not first["written"]["failures"]
    done = [value for value, _ in first["progress"]]
    assert done and done == sorted(set(done)), first["progress"]  # the protocol wants it increasing


def test_ask_answers_two_hops_with_evidence_and_chain(server: Client, remembered: list[dict[str, Any]]) -> None:
    answer = server.ok("ask", question=QUESTION)
    assert "vet" in answer["answer"].lower() and answer["answered"] is True
    assert answer["support"] and "vet" in answer["support"][0]["text"] and answer["support"][0]["date"]
    assert answer["chain"]["path"] == ["me", "Tomás", "Inês"]
    assert [link["target"] for link in answer["chain"]["links"]] == ["Tomás", "Inês"]
    quoted = {e["text"]: e["timestamp"] for e in answer["evidence"]}
    assert quoted[SISTER] == "2026-11-30T00:00:00" and FLATMATE in quoted
    assert "trace" not in answer
    assert "stage1" in server.ok("ask", question=QUESTION, trace=True)["trace"]


def test_search_finds_what_was_remembered_with_its_date(server: Client, remembered: list[dict[str, Any]]) -> None:
    found = server.ok("search", query="cello", person="Tomás")
    assert found["person"] == "Tomás" and found["results"]
    assert found["results"][0]["text"] == FLATMATE and found["results"][0]["date"]


def test_show_entities_and_resources(server: Client, remembered: list[dict[str, Any]]) -> None:
    shown = server.ok("show", name="ines")  # accents and case aside
    assert shown["entity"] == "Inês" and any("vet" in fact["text"] for fact in shown["facts"])
    assert {row["name"]: row["kind"] for row in server.ok("entities")["entities"]} == {
        "me": "self", "Tomás": "person", "Inês": "person"
    }
    assert server.resource("memhop://entity/In%C3%AAs") == shown
    stats = server.resource("memhop://stats")
    assert stats["sources"] == stats["turns"] == 2 and stats["entities"] == 3
    assert "no entity named 'Nobody'" in server.refused("show", name="Nobody")
    with pytest.raises(MCPError, match="no entity named 'Nobody'"):
        server.resource("memhop://entity/Nobody")


def test_read_only_server_answers_but_refuses_remember_and_forget(read_only: Client) -> None:
    assert "vet" in read_only.ok("ask", question=QUESTION)["answer"].lower()
    assert read_only.refused("remember", text="Inês moved to Porto.").endswith(
        "this memhop server is read-only (started with --read-only): remember is refused"
    )
    assert "forget is refused" in read_only.refused("forget", name="Inês", dry_run=False)
    assert read_only.ok("forget", name="Inês")["dry_run"] is True  # the plan is a read
    assert read_only.resource("memhop://stats")["sources"] == 2


def test_forget_plans_by_default_and_forgets_with_dry_run_false(server: Client, read_only: Client) -> None:
    before = server.resource("memhop://stats")
    plan = server.ok("forget", name="Inês")
    assert plan["dry_run"] is True and plan["summary"]["entities deleted"] == 1 and plan["residue"] is None
    assert server.resource("memhop://stats") == before and server.ok("show", name="Inês")["entity"] == "Inês"

    done = server.ok("forget", name="Inês", dry_run=False)
    assert done["dry_run"] is False and done["compacted"] is True
    assert done["residue"]["text_hits"] == {} and done["residue"]["file_text_hits"] == 0
    assert "Inês" not in {row["name"] for row in server.ok("entities")["entities"]}
    assert "no entity named 'Inês'" in server.refused("show", name="Inês")
    assert "Inês" not in json.dumps(server.ok("ask", question=QUESTION), ensure_ascii=False)
