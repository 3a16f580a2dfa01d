-- Which host tool call a hook's run answered (Claude Code's tool_use_id), and whether the
-- answer reached the host: 1 delivered, 0 not (the host had given up on the hook, and the
-- model saw the raw output), NULL where that is not known (other surfaces, older rows).
ALTER TABLE runs ADD COLUMN call_id TEXT;
ALTER TABLE runs ADD COLUMN delivered INTEGER;
