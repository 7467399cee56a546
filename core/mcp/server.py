"""The MCP face of a MemoryService: tools and resources on the SDK's MCPServer.

Every tool runs its store call in a worker thread (the event loop stays free to answer
pings and cancellations) and turns memhop's own errors into tool errors the assistant can
read. Descriptions are written for the assistant: they are all it knows of each tool.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from typing import Annotated, Any, TypeVar

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp_types import ToolAnnotations
from pydantic import AnyHttpUrl, Field

import memhop
from memhop.core.errors import EntityNotFound, MemhopError
from memhop.core.mcp.service import MemoryService
from memhop.core.mcp.transport import MCP_PATH, HttpListen, StaticToken

T = TypeVar("T")

INSTRUCTIONS = (
    "memhop is the user's private memory of their own life: people, places, what happened, from their diaries, "
    "chats and notes. Use `ask` for questions about the user's life (it follows relations across people, "
    "e.g. 'my flatmate's sister'), `search` for passages, `show` for everything known about one entity. "
    "Use `remember` only for something the user wants kept. `forget` with dry_run=false removes for good: "
    "show the user the dry-run plan and get their agreement first."
)

READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)

Question = Annotated[str, Field(description="The question in plain words, as the user would ask it.", min_length=1)]
Top = Annotated[int | None, Field(description="Entities selected before following relations (default: the settings').", ge=1)]
Hops = Annotated[int | None, Field(description="Relation hops to follow at most (default: the settings').", ge=0)]
Evidence = Annotated[int | None, Field(description="Raw turns to quote as evidence at most (default: the settings').", ge=0)]
Trace = Annotated[bool, Field(description="Include the full read trace (scores of every stage); large.")]
Query = Annotated[str, Field(description="Words to look for in what the user wrote.", min_length=1)]
Person = Annotated[str | None, Field(description="Only passages about this person (a name or alias).")]
Since = Annotated[date | None, Field(description="Only passages on or after this day (YYYY-MM-DD).")]
Until = Annotated[date | None, Field(description="Only passages on or before this day (YYYY-MM-DD).")]
Limit = Annotated[int | None, Field(description="Passages to return at most.", ge=1)]
Name = Annotated[str, Field(description="An entity: full name, alias, first name or surname (case and accents aside).")]
Superseded = Annotated[bool, Field(description="Also list facts a newer fact has replaced.")]
Text = Annotated[str, Field(description="The note, in the user's words ('My flatmate Tomás plays the cello.').", min_length=1)]
Speaker = Annotated[
    str | None, Field(description="Who said it: omit (or 'me') for the user themself, else the person's name.")
]
When = Annotated[
    str | None, Field(description="When it was said or happened, ISO 8601 (2026-03-14 or 2026-03-14T18:30); default now.")
]
DryRun = Annotated[
    bool, Field(description="true (default): only return the plan, change nothing. false: forget for good.")
]


def build_server(service: MemoryService, listen: HttpListen | None = None) -> MCPServer[Any]:
    """An MCPServer whose tools and resources read and change `service`'s store; over HTTP
    with a token, every request must carry it (the SDK's bearer middleware checks it)."""
    auth: dict[str, Any] = {}
    if listen is not None and listen.token is not None:
        issuer = listen.url.removesuffix(MCP_PATH)  # no OAuth server: the issuer is this server
        settings = AuthSettings(issuer_url=AnyHttpUrl(issuer), resource_server_url=None)
        auth = {"auth": settings, "token_verifier": StaticToken(listen.token)}
    server: MCPServer[Any] = MCPServer(
        name="memhop", version=memhop.__version__, instructions=INSTRUCTIONS, log_level="WARNING", **auth
    )
    _add_reading_tools(server, service)
    _add_changing_tools(server, service)
    _add_resources(server, service)
    return server


async def _run(call: Callable[[], T]) -> T:
    """`call` in a worker thread; memhop's errors become tool errors with their message."""
    try:
        return await anyio.to_thread.run_sync(call)
    except MemhopError as exc:
        raise ToolError(str(exc)) from None


def _add_reading_tools(server: MCPServer[Any], service: MemoryService) -> None:
    @server.tool(annotations=READS)
    async def ask(question: Question, top: Top = None, hops: Hops = None, evidence: Evidence = None,
                  trace: Trace = False) -> dict[str, Any]:
        """Answer a question from the user's memory, following relations between people over
        several hops ("What does my flatmate's sister do?"). Returns the answer ("I don't know"
        when nothing in memory supports one), the entities and facts it was built from, the raw
        turns quoted as evidence (with dates and speakers), and the chain of entities it followed."""
        return await _run(lambda: service.ask(question, top=top, hops=hops, evidence=evidence, trace=trace))

    @server.tool(annotations=READS)
    async def search(query: Query, person: Person = None, since: Since = None, until: Until = None,
                     limit: Limit = None) -> dict[str, Any]:
        """Find passages the user wrote (diary entries, chat messages, notes) matching the query,
        optionally about one person and within dates; each with its date and source."""
        return await _run(lambda: service.search(query, person=person, since=since, until=until, limit=limit))

    @server.tool(annotations=READS)
    async def show(name: Name, include_superseded: Superseded = False) -> dict[str, Any]:
        """Everything memory holds about one person, place or thing: its profile and its facts,
        each fact with its id, category, date and the turns it came from."""
        return await _run(lambda: service.show(name, include_superseded=include_superseded))

    @server.tool(annotations=READS)
    async def entities() -> dict[str, Any]:
        """Every entity memory knows (the user first, marked kind 'self'), with aliases and how
        many facts and mentions each has. Use it to find the exact name for `show` or `ask`."""
        return await _run(service.entities)


def _add_changing_tools(server: MCPServer[Any], service: MemoryService) -> None:
    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    async def remember(text: Text, ctx: Context, speaker: Speaker = None, date: When = None) -> dict[str, Any]:
        """Keep a note in the user's memory: stored as one message, then written into the
        profiles and facts of the people it names, so `ask` can use it at once. Only for
        something the user wants remembered. Refused by a server started with --read-only."""
        progress = _ProtocolProgress(ctx)
        return await _run(lambda: service.remember(text, speaker=speaker, when=date, progress=progress))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False))
    async def forget(name: Name, dry_run: DryRun = True) -> dict[str, Any]:
        """Remove an entity everywhere (profile, facts, and its name in every stored message),
        then prove it with a residue scan. With dry_run=true (the default) nothing changes and
        the plan is returned: every row that would change. Show the user the plan and get
        their agreement before calling it with dry_run=false; that cannot be undone. Forgetting
        is refused by a server started with --read-only."""
        return await _run(lambda: service.forget(name, dry_run=dry_run))


def _add_resources(server: MCPServer[Any], service: MemoryService) -> None:
    @server.resource("memhop://entity/{name}", mime_type="application/json")
    async def entity(name: str) -> str:
        """One entity's profile and facts with their sources (as the `show` tool returns them)."""
        try:
            view = await anyio.to_thread.run_sync(lambda: service.show(name))
        except EntityNotFound as exc:
            raise ResourceNotFoundError(str(exc)) from None
        except MemhopError as exc:
            raise ResourceError(str(exc)) from None
        return json.dumps(view, ensure_ascii=False, indent=2)

    @server.resource("memhop://stats", mime_type="application/json")
    async def stats() -> str:
        """How many sources, sessions, turns, entities, profiles and facts the store holds."""
        try:
            counts = await anyio.to_thread.run_sync(service.stats)
        except MemhopError as exc:
            raise ResourceError(str(exc)) from None
        return json.dumps(counts, ensure_ascii=False, indent=2)


class _ProtocolProgress:
    """Core progress as MCP progress notifications, sent from the worker thread the write
    runs in. The count runs on across stages (embedding, writing), so it only increases,
    as the protocol asks; a client that asked for no progress gets none."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        self._finished = 0  # the totals of the stages before this one
        self._total = 0
        self._done = 0
        self._label = ""

    def start(self, label: str, total: int) -> None:
        self._finished += self._total
        self._label, self._total, self._done = label, total, 0

    def note(self, text: str) -> None:
        return None  # progress notifications carry a count and a label; the label says the stage

    def advance(self, amount: int) -> None:
        if amount <= 0:
            return
        self._done += amount
        anyio.from_thread.run(
            self._ctx.report_progress, self._finished + self._done, self._finished + self._total, self._label
        )
