-- Version 17: when each personal API token was last used (written at
-- most once a minute per token, so that a busy bot does not write on each
-- call; NULL: never used).
ALTER TABLE api_tokens ADD COLUMN used_ms INTEGER;
