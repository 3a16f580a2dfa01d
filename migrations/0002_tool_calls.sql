-- The agent's tool calls, one row per PostToolUse the hook saw. A run's output is re-sent
-- with every later request of its session; counting the calls after it measures that.
CREATE TABLE tool_calls (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,            -- unix epoch, milliseconds
  session TEXT NOT NULL,
  tool TEXT NOT NULL,
  project TEXT NOT NULL           -- the working directory, canonical
);
CREATE INDEX tool_calls_session ON tool_calls (session, ts);
CREATE INDEX runs_session ON runs (session, ts);
