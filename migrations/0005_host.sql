-- Which agent host a run or a tool call came from (claude, codex, gemini, opencode, copilot);
-- NULL for a run no host's hook saw (a person at a terminal, the proxy, MCP).
ALTER TABLE runs ADD COLUMN host TEXT;
ALTER TABLE tool_calls ADD COLUMN host TEXT;
