-- The style arm of a proxied request's session (styled | holdout), when the style plugin ran:
-- `rtok gain` compares output tokens per request across the two.
ALTER TABLE proxy_requests ADD COLUMN style_arm TEXT;
