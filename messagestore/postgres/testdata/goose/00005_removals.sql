-- Removals logged, so that a listing read in chunks goes on from the
-- right message whatever was removed meanwhile: see listing.go.
--
-- A listing reads the collection in chunks, each its own statement,
-- continuing after the last (page_id, slot) it read. Appends only add
-- keys after the last, and Replace changes texts only, so across them the
-- keys of the messages already there stay put. A Remove renumbers slots
-- and merges pages, moving messages to other keys, and shifts the indexes
-- of the messages after it. So each removal is counted (removals, in the
-- bounds row) and logged with the index of the message it removed, as it
-- was then: a listing that finds the count changed reads the log, works
-- out where the message it is to send next now is, and goes on from
-- there by index.
--
-- The log keeps the last 10,000 removals: a listing that falls further
-- behind ends with an error. It is kept by the trigger that already keeps
-- bytes right when Remove deletes its row, which runs before Remove moves
-- anything: the page of the row removed still says where the row was. It
-- finds that page by page_id, which has no index: a scan of the pages,
-- n / page_size rows (about a thousand at a million messages), against
-- the thousand message rows a Remove may move.

-- +goose Up

ALTER TABLE greeter_message_bounds ADD COLUMN removals bigint NOT NULL DEFAULT 0;

CREATE TABLE greeter_message_removals (
    removal       bigint PRIMARY KEY,  -- the count of removals once it was made
    message_index bigint NOT NULL      -- the index of the message it removed, as it was then
);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION greeter_message_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    made bigint;
BEGIN
    UPDATE greeter_message_bounds SET bytes = bytes - octet_length(OLD.text), removals = removals + 1
    RETURNING removals INTO made;
    INSERT INTO greeter_message_removals (removal, message_index)
    SELECT made, p.start + (OLD.slot - p.first_slot) - b.base
    FROM greeter_message_pages p, greeter_message_bounds b WHERE p.page_id = OLD.page_id;
    DELETE FROM greeter_message_removals WHERE removal <= made - 10000;
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

DROP TABLE greeter_message_removals;
ALTER TABLE greeter_message_bounds DROP COLUMN removals;
