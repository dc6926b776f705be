-- Schema 3 -> 4: each history entry keeps Pulumi's UpdateInfo environment
-- (the update's metadata) and config (for `config refresh`), as JSON text.
ALTER TABLE updates ADD COLUMN environment TEXT;
ALTER TABLE updates ADD COLUMN config TEXT;
