-- Full-text search over archived outputs. Filled lazily, when a search runs: each archive row
-- not yet indexed has its file read once, so the run that archived it pays nothing. Keyed by
-- sha256, so the same bytes archived again (a renewed row) are indexed once.
CREATE VIRTUAL TABLE archive_text USING fts5 (body, tokenize = 'unicode61');

-- Which archived outputs are in archive_text (fts_rowid NULL: binary or unreadable, skipped).
CREATE TABLE archive_indexed (
  sha256 TEXT PRIMARY KEY,
  fts_rowid INTEGER,
  indexed INTEGER NOT NULL          -- unix epoch, milliseconds
);
