-- The proxy's requests, one row each: the usage the provider reported (real tokens, never
-- estimates), and what compression saw and saved in the request's tool results. Never content,
-- never credentials.
CREATE TABLE proxy_requests (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,              -- unix epoch, milliseconds, when the request arrived
  provider TEXT NOT NULL,           -- anthropic | openai
  route TEXT NOT NULL,              -- messages | count_tokens | chat | responses | other
  model TEXT,
  status INTEGER,                   -- the upstream's HTTP status; 502 when it never answered
  streamed INTEGER NOT NULL,
  latency_ms REAL NOT NULL,         -- arrival to response headers
  duration_ms REAL NOT NULL,        -- arrival to the last byte sent
  input_tokens INTEGER,             -- from the provider's usage; NULL when it reported none
  output_tokens INTEGER,
  cache_write_tokens INTEGER,
  cache_read_tokens INTEGER,
  results_seen INTEGER NOT NULL,    -- tool results in the request
  results_compressed INTEGER NOT NULL,
  chars_seen INTEGER NOT NULL,      -- tool-result chars in the request, compressed or not
  chars_saved INTEGER NOT NULL,
  note TEXT                         -- why the body went untouched: bypass, not JSON, too large
);
CREATE INDEX proxy_requests_ts ON proxy_requests (ts);

-- One row per tool result the proxy compressed, per request: a result re-sent in every later
-- request of a session is compressed (to the same bytes) and saves again each time.
CREATE TABLE proxy_results (
  id INTEGER PRIMARY KEY,
  request_id INTEGER NOT NULL REFERENCES proxy_requests (id) ON DELETE CASCADE,
  shape TEXT NOT NULL,              -- the content filter: "git log", "json", "text"
  raw_chars INTEGER NOT NULL,
  emitted_chars INTEGER NOT NULL,
  raw_tokens INTEGER NOT NULL,      -- estimates, by text class
  emitted_tokens INTEGER NOT NULL,
  text_class TEXT NOT NULL,
  archive_id TEXT
);
CREATE INDEX proxy_results_request ON proxy_results (request_id);
