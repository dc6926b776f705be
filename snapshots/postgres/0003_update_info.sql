-- Schema 2 -> 3: each history entry keeps Pulumi's UpdateInfo environment
-- (the update's metadata) and config (for `config refresh`), as JSON text.
ALTER TABLE minipulumi.updates ADD COLUMN environment text;
ALTER TABLE minipulumi.updates ADD COLUMN config text;
