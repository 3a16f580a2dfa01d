-- Who sent each proxy request: the team's caller name (x-rtok-caller) or `key-` and a salted
-- hash of the provider key; never a key. NULL for rows older than the gateway.
ALTER TABLE proxy_requests ADD COLUMN caller TEXT;
CREATE INDEX proxy_requests_caller ON proxy_requests (caller, ts);
