-- Removals counted, so that a listing read in chunks can tell whether
-- the keys it continues from still mean what they meant: see listing.go.
--
-- A listing reads the collection in chunks, each its own statement,
-- continuing after the last (page_id, slot) it read. Appends only add
-- keys after the last, and Replace changes texts only, so across them
-- the keys of the messages already there stay put. A Remove renumbers
-- slots and merges pages, moving messages to other keys; removals
-- counts them, so that a chunk that sees it changed knows.
--
-- The count is kept by the trigger that already keeps bytes right when
-- Remove deletes its row: one update of the bounds row, which Remove has
-- locked anyway, for both.

-- +goose Up

ALTER TABLE greeter_message_bounds ADD COLUMN removals bigint NOT NULL DEFAULT 0;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION greeter_message_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE greeter_message_bounds SET bytes = bytes - octet_length(OLD.text), removals = removals + 1;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose Down

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION greeter_message_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE greeter_message_bounds SET bytes = bytes - octet_length(OLD.text);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

ALTER TABLE greeter_message_bounds DROP COLUMN removals;
