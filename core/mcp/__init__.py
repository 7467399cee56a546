"""memhop as an MCP server: the memory's questions, lookups, notes and forgetting offered
to an assistant through the official `mcp` SDK (the `mcp` extra).

`service` is the memory side and needs no SDK; `server` registers it as tools and
resources; `transport` runs it over stdio or loopback HTTP. Nothing here is imported by
`memhop --help`.
"""
