"""Everything the commands print, by what it shows. Modules import rich at load time, so
commands import them inside the function: `memhop --help` loads none of them.

answer   the answer to a question, and the trace tree of how it was found
reports  what ingest, rebuild, the edits and export did
forget   a forget plan, its confirmation prompt and the proof it is gone
views    an entity, the entity list, counts, settings, the version
"""
