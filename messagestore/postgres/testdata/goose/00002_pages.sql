-- The message collection in pages, with texts as bytes: see the package
-- comment of postgres for the layout and the locking.
--
-- Version 1 numbered every message by its position, so a Remove
-- renumbered up to half the collection: about 4 s at a million messages,
-- close to the 5 s bound on an operation. Here the messages are cut into
-- pages of at most page_size: message i is in the page whose start is the
-- greatest not above its position base + i, at slot first_slot + (base +
-- i - start) of it. A Remove renumbers slots within one page and moves
-- the starts of the pages on one side of it: at most 3/2 page_size
-- message rows (half a page, and a neighbour merged in) and n / page_size
-- + 1 page rows, O(sqrt(n)) when page_size is about sqrt(n), rather than
-- n / 2 rows. Get and Replace find the page by a backward scan of the
-- index on start, then the message by its primary key: O(log n).
--
-- Version 1 kept texts as text, which cannot hold a NUL byte (nor bytes
-- that are not UTF-8), although a Go string and the in-memory store can;
-- texts are now the string's bytes, as bytea.
--
-- The conversion rewrites the table once, in the migration's transaction:
-- a crash or an error leaves version 1 as it was.

-- +goose Up

-- page_size bounds the rows of a page: a page is full at page_size and an
-- Append then opens a new one, and two neighbours merge when together they
-- hold page_size or fewer. The functions read it from the row they lock,
-- so it can be changed at any time: it decides only where pages are cut,
-- never what a message's index is. 1024 is about the square root of a
-- million, where a Remove's two costs (slots within its page, starts of
-- the pages on one side) are balanced. base keeps its meaning: message i
-- is at position base + i.
ALTER TABLE greeter_message_bounds
    ADD COLUMN page_size integer NOT NULL DEFAULT 1024 CHECK (page_size > 0);

-- Version 1's invariant, checked before it is relied on: positions base to
-- base + n - 1, each once, and nothing else.
-- +goose StatementBegin
DO $$
DECLARE
    counted bigint;
    lowest  bigint;
    highest bigint;
    b       greeter_message_bounds;
BEGIN
    SELECT * INTO b FROM greeter_message_bounds;
    SELECT count(*), min(position), max(position) INTO counted, lowest, highest FROM greeter_messages;
    IF counted <> b.n OR (counted > 0 AND (lowest <> b.base OR highest <> b.base + b.n - 1)) THEN
        RAISE EXCEPTION 'greeter_messages holds % rows at positions % to %, but greeter_message_bounds says % from %: not converting an inconsistent collection',
            counted, lowest, highest, b.n, b.base;
    END IF;
END
$$;
-- +goose StatementEnd

-- A page holds the messages at positions start to start + count - 1, where
-- count is the next page's start minus this one's (base + n minus it for
-- the last page), so no count is stored that could disagree. Its j-th
-- message is the row (page_id, first_slot + j): first_slot grows when a
-- Remove closes a gap by moving the slots before it.
--
-- page_id is what the messages refer to; it never changes while the page
-- lives, and page ids increase along the collection (pages are opened
-- only at the end, and a merge keeps the earlier page's id), so the
-- messages sorted by (page_id, slot) are in order. It has no index: every
-- lookup goes by start, and a second index on rows that Remove rewrites by
-- the hundred would add a quarter to that cost.
--
-- The unique constraint on start is checked at commit, because Remove
-- moves the starts of the pages on one side by one in one UPDATE, whose
-- intermediate states may collide.
CREATE TABLE greeter_message_pages (
    page_id    bigint NOT NULL,
    start      bigint NOT NULL,
    first_slot bigint NOT NULL DEFAULT 0 CHECK (first_slot >= 0),
    CONSTRAINT greeter_message_pages_start_key UNIQUE (start) DEFERRABLE INITIALLY DEFERRED
);

-- The messages, by page and slot; slots are dense within a page. The
-- primary key is checked at commit for the same reason as the pages'
-- start. No foreign key to the pages: every change to both tables is made
-- by the functions below under the collection's lock, and checking it for
-- every row that a merge moves would double the merge's cost.
CREATE TABLE greeter_messages_paged (
    page_id bigint NOT NULL,
    slot    bigint NOT NULL,
    text    bytea  NOT NULL
);

-- The conversion: full pages, in order. The index is built after the rows
-- are in, which is several times faster than maintaining it row by row.
INSERT INTO greeter_messages_paged (page_id, slot, text)
SELECT (m.position - b.base) / b.page_size, (m.position - b.base) % b.page_size, convert_to(m.text, 'UTF8')
FROM greeter_messages m, greeter_message_bounds b;
ALTER TABLE greeter_messages_paged
    ADD CONSTRAINT greeter_messages_pkey PRIMARY KEY (page_id, slot) DEFERRABLE INITIALLY DEFERRED;
INSERT INTO greeter_message_pages (page_id, start)
SELECT g, b.base + g * b.page_size
FROM greeter_message_bounds b, generate_series(0, (b.n + b.page_size - 1) / b.page_size - 1) g;

DROP FUNCTION greeter_remove_message(bigint);
DROP FUNCTION greeter_replace_message(bigint, text);
DROP TABLE greeter_messages;
ALTER TABLE greeter_messages_paged RENAME TO greeter_messages;
ANALYZE greeter_messages, greeter_message_pages;

-- greeter_append_message adds a message after the last one. Incrementing
-- n locks the bounds row (FOR NO KEY UPDATE) until commit, which
-- serializes Appends with each other and with Removes; the function is
-- VOLATILE (the default), so in READ COMMITTED each later statement sees
-- everything committed before the lock was granted, the last page of the
-- moment included. (A single statement could not: its other parts would
-- read the pages from the snapshot taken before it waited for the lock.)
-- +goose StatementBegin
CREATE FUNCTION greeter_append_message(new_text bytea) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    a          bigint;  -- the position of the new message
    size       integer;
    last_id    bigint;
    last_start bigint;
    last_first bigint;
BEGIN
    UPDATE greeter_message_bounds SET n = n + 1 RETURNING base + n - 1, page_size INTO a, size;
    SELECT p.page_id, p.start, p.first_slot INTO last_id, last_start, last_first
    FROM greeter_message_pages p ORDER BY p.start DESC LIMIT 1;
    IF last_id IS NULL OR a - last_start >= size THEN
        last_id := coalesce(last_id + 1, 0);
        last_start := a;
        last_first := 0;
        INSERT INTO greeter_message_pages (page_id, start) VALUES (last_id, a);
    END IF;
    INSERT INTO greeter_messages (page_id, slot, text) VALUES (last_id, last_first + a - last_start, new_text);
END
$$;
-- +goose StatementEnd

-- greeter_replace_message sets the text of message i and returns the
-- length of the collection as it was while the change was made. It takes
-- the collection's advisory lock (2035117395872734295, the first eight
-- bytes of the SHA-256 of "greeter_messages") shared, which conflicts
-- with Remove's exclusive hold of it only: no message moves until the
-- change commits, and the later statements see any Remove that the lock
-- waited for. An advisory lock rather than a row lock on the bounds: a
-- FOR KEY SHARE there, against Remove's FOR UPDATE on a row that Appends
-- keep updating, deadlocked now and then (PostgreSQL locks each version
-- along the row's update chain), while a lock that only these two take,
-- always first, cannot.
-- +goose StatementBegin
CREATE FUNCTION greeter_replace_message(i bigint, new_text bytea) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    first bigint;
    len   bigint;
    a     bigint;  -- the position of message i, computed (and so not
                   -- overflowing) only for an index in range
BEGIN
    PERFORM pg_advisory_xact_lock_shared(2035117395872734295);
    SELECT b.base, b.n INTO first, len FROM greeter_message_bounds b;
    IF i >= 0 AND i < len THEN
        a := first + i;
        UPDATE greeter_messages SET text = new_text
        WHERE (page_id, slot) = (
            SELECT p.page_id, p.first_slot + a - p.start FROM greeter_message_pages p
            WHERE p.start <= a ORDER BY p.start DESC LIMIT 1
        );
        IF NOT FOUND THEN
            RAISE EXCEPTION 'greeter_messages has no row for message % of %', i, len;
        END IF;
    END IF;
    RETURN len;
END
$$;
-- +goose StatementEnd

-- greeter_remove_message deletes message i and returns the length of the
-- collection before the removal. It holds the collection's advisory lock
-- (see greeter_replace_message) exclusively, which keeps Replaces out,
-- then locks the bounds row FOR UPDATE, which waits for the Appends in
-- progress and keeps new ones out. Like version 1 it closes the gap from its shorter
-- side, but on two levels: within the page, the slots before the message
-- move one on (and first_slot with them) or those after it one back; among
-- the pages, the starts of those before it move one on (and base with
-- them) or those after it one back. At either end of the collection it
-- moves nothing, and anywhere it changes at most page_size / 2 slots and
-- the starts of about half the pages. It also keeps every two neighbouring
-- pages holding more than page_size messages together, by merging a page
-- into its neighbour (at most page_size - 1 rows move), so that there are
-- at most 2n / page_size + 1 pages however the removals fall.
-- +goose StatementBegin
CREATE FUNCTION greeter_remove_message(i bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    first      bigint;
    len        bigint;
    size       integer;
    a          bigint;  -- the position of message i,
    k          bigint;  -- its offset in its page,
    page       bigint;  -- and its page,
    page_start bigint;
    page_first bigint;
    page_count bigint;  -- which keeps page_count messages
    prev       bigint;  -- the page before it,
    prev_start bigint;
    prev_first bigint;
    next       bigint;  -- and the one after it
    next_start bigint;
    next_first bigint;
    next_count bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(2035117395872734295);
    SELECT b.base, b.n, b.page_size INTO first, len, size FROM greeter_message_bounds b FOR UPDATE;
    IF i < 0 OR i >= len THEN
        RETURN len;
    END IF;
    a := first + i;
    SELECT p.page_id, p.start, p.first_slot INTO page, page_start, page_first
    FROM greeter_message_pages p WHERE p.start <= a ORDER BY p.start DESC LIMIT 1;
    SELECT p.page_id, p.start, p.first_slot INTO next, next_start, next_first
    FROM greeter_message_pages p WHERE p.start > a ORDER BY p.start LIMIT 1;
    k := a - page_start;
    page_count := coalesce(next_start, first + len) - page_start - 1;

    DELETE FROM greeter_messages WHERE page_id = page AND slot = page_first + k;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'greeter_messages has no row for message % of % (page %, slot %)', i, len, page, page_first + k;
    END IF;
    IF page_count = 0 THEN
        -- Its neighbours held more than page_size with it, so the one
        -- before was full: together they still hold more.
        DELETE FROM greeter_message_pages WHERE start = page_start;
    ELSE
        SELECT p.page_id, p.start, p.first_slot INTO prev, prev_start, prev_first
        FROM greeter_message_pages p WHERE p.start < page_start ORDER BY p.start DESC LIMIT 1;
        IF prev IS NOT NULL AND page_start - prev_start + page_count <= size THEN
            -- Into the page before, closing the gap in the same UPDATE:
            -- its j-th remaining message goes after the page's last.
            UPDATE greeter_messages
            SET page_id = prev,
                slot = prev_first + (page_start - prev_start) + (slot - page_first)
                    - CASE WHEN slot > page_first + k THEN 1 ELSE 0 END
            WHERE page_id = page;
            DELETE FROM greeter_message_pages WHERE start = page_start;
        ELSE
            IF k < page_count - k THEN
                UPDATE greeter_messages SET slot = slot + 1 WHERE page_id = page AND slot < page_first + k;
                page_first := page_first + 1;
                UPDATE greeter_message_pages SET first_slot = page_first WHERE start = page_start;
            ELSE
                UPDATE greeter_messages SET slot = slot - 1 WHERE page_id = page AND slot > page_first + k;
            END IF;
            IF next IS NOT NULL THEN
                SELECT coalesce(min(p.start), first + len) - next_start INTO next_count
                FROM greeter_message_pages p WHERE p.start > next_start;
                IF page_count + next_count <= size THEN
                    -- The page after joins this one.
                    UPDATE greeter_messages SET page_id = page, slot = slot - next_first + page_first + page_count
                    WHERE page_id = next;
                    DELETE FROM greeter_message_pages WHERE start = next_start;
                END IF;
            END IF;
        END IF;
    END IF;
    IF i < len - 1 - i THEN
        -- Fewer messages before it than after: those before move one
        -- position on, and the collection starts one position later.
        UPDATE greeter_message_pages SET start = start + 1 WHERE start <= page_start;
        UPDATE greeter_message_bounds SET base = base + 1, n = n - 1;
    ELSE
        UPDATE greeter_message_pages SET start = start - 1 WHERE start > page_start;
        UPDATE greeter_message_bounds SET n = n - 1;
    END IF;
    RETURN len;
END
$$;
-- +goose StatementEnd

-- +goose Down

-- Back to positions alone (a message keeps its position, so base stays)
-- and text. A text that a text column cannot hold (a NUL byte, bytes that
-- are not UTF-8) stops the migration, which then changes nothing: no
-- message is dropped or altered silently.
-- +goose StatementBegin
DO $$
DECLARE
    nul bigint;
BEGIN
    SELECT count(*) INTO nul FROM greeter_messages WHERE position('\x00'::bytea IN text) > 0;
    IF nul > 0 THEN
        RAISE EXCEPTION '% messages contain a NUL byte, which version 1 of the schema cannot store: replace or remove them before migrating down', nul;
    END IF;
END
$$;
-- +goose StatementEnd

CREATE TABLE greeter_messages_positioned (
    position bigint NOT NULL,
    text     text   NOT NULL
);
INSERT INTO greeter_messages_positioned (position, text)
SELECT p.start + m.slot - p.first_slot, convert_from(m.text, 'UTF8')
FROM greeter_messages m JOIN greeter_message_pages p USING (page_id);
ALTER TABLE greeter_messages_positioned
    ADD CONSTRAINT greeter_messages_position_key UNIQUE (position) DEFERRABLE INITIALLY DEFERRED;

DROP FUNCTION greeter_remove_message(bigint);
DROP FUNCTION greeter_replace_message(bigint, bytea);
DROP FUNCTION greeter_append_message(bytea);
DROP TABLE greeter_messages;
DROP TABLE greeter_message_pages;
ALTER TABLE greeter_messages_positioned RENAME TO greeter_messages;
ALTER TABLE greeter_message_bounds DROP COLUMN page_size;
ANALYZE greeter_messages;

-- Version 1's functions, as 00001_messages.sql created them.
-- +goose StatementBegin
CREATE FUNCTION greeter_replace_message(i bigint, new_text text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    first bigint;
    len   bigint;
BEGIN
    SELECT b.base, b.n INTO first, len FROM greeter_message_bounds b FOR KEY SHARE;
    IF i >= 0 AND i < len THEN
        UPDATE greeter_messages SET text = new_text WHERE position = first + i;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'greeter_messages has no row at position % for message % of %', first + i, i, len;
        END IF;
    END IF;
    RETURN len;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION greeter_remove_message(i bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    first  bigint;
    len    bigint;
    target bigint;
BEGIN
    SELECT b.base, b.n INTO first, len FROM greeter_message_bounds b FOR UPDATE;
    IF i < 0 OR i >= len THEN
        RETURN len;
    END IF;
    target := first + i;
    DELETE FROM greeter_messages WHERE position = target;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'greeter_messages has no row at position % for message % of %', target, i, len;
    END IF;
    IF i < len - 1 - i THEN
        UPDATE greeter_messages SET position = position + 1 WHERE position >= first AND position < target;
        UPDATE greeter_message_bounds SET base = base + 1, n = n - 1;
    ELSE
        UPDATE greeter_messages SET position = position - 1 WHERE position > target;
        UPDATE greeter_message_bounds SET n = n - 1;
    END IF;
    RETURN len;
END
$$;
-- +goose StatementEnd
