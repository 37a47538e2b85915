-- Limits on what the collection holds: see the package comment of
-- postgres (Limits) for why they are checked here.
--
-- The bounds row gains bytes, the texts' lengths summed, so that a writer
-- checks a bound against the row it locks anyway, and Usage reads one
-- row. Each instance passes its own configured limits to the new
-- functions; those of version 3, which instances still running the
-- previous binary call during a rolling upgrade, become the new ones
-- without limits, so that they keep bytes right too. Remove, unchanged,
-- keeps it right through a trigger on the one row it deletes.

ALTER TABLE greeter_message_bounds ADD COLUMN bytes bigint NOT NULL DEFAULT 0 CHECK (bytes >= 0);
ALTER TABLE greeter_message_bounds ALTER COLUMN bytes DROP DEFAULT;
UPDATE greeter_message_bounds SET bytes = (SELECT coalesce(sum(octet_length(text)), 0) FROM greeter_messages);

-- greeter_fits is the rule of message.Limits.Admits, for a collection
-- holding held messages of held_bytes bytes, taking added more that grow
-- it by growth: a bound of 0 or less is none, and a change that adds no
-- message (or grows nothing) is never refused by that bound.
CREATE FUNCTION greeter_fits(held bigint, held_bytes bigint, added bigint, growth bigint, max_count bigint, max_bytes bigint) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
    SELECT (added <= 0 OR max_count <= 0 OR held + added <= max_count)
       AND (growth <= 0 OR max_bytes <= 0 OR held_bytes + growth <= max_bytes)
$$;

-- greeter_append_messages adds the messages of texts that the limits
-- admit after the last one, in the order of the array: each in turn is
-- admitted iff it fits in what the collection holds with the ones
-- admitted before it, as one Append after another would be. It locks the
-- bounds row (FOR NO KEY UPDATE, as version 3's UPDATE did) before
-- reading what the collection holds, so that the check and the change
-- are atomic across instances; the later statements see everything
-- committed before the lock was granted. It returns the collection's
-- length and bytes before the batch and the indexes (from 0, in the
-- array's order) of the texts refused, from which the caller rebuilds
-- what each refused one met. An empty array (or NULL) changes nothing;
-- an array of more than one dimension, or with a NULL element, is
-- refused before anything is changed.
CREATE FUNCTION greeter_append_messages(texts bytea[], max_count bigint, max_bytes bigint,
    OUT len bigint, OUT size bigint, OUT refused integer[])
LANGUAGE plpgsql AS $$
DECLARE
    first      integer := array_lower(texts, 1);
    admitted   bytea[];
    k          bigint;  -- messages to add
    growth     bigint;  -- their bytes
    a          bigint;  -- the position of the first of them
    page       integer;
    last_id    bigint;
    last_start bigint;
    last_first bigint;
    done       bigint := 0;  -- how many of them are in place
    here       bigint;       -- the position of the next one
    take       bigint;       -- how many go into the current page
    t          bytea;
BEGIN
    refused := '{}';
    IF coalesce(cardinality(texts), 0) = 0 THEN
        SELECT b.n, b.bytes INTO len, size FROM greeter_message_bounds b;
        RETURN;
    END IF;
    IF array_ndims(texts) <> 1 OR array_position(texts, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'greeter_append_messages takes a one-dimensional array of texts without NULLs';
    END IF;
    SELECT b.n, b.bytes INTO len, size FROM greeter_message_bounds b FOR NO KEY UPDATE;
    SELECT count(*), sum(octet_length(u)) INTO k, growth FROM unnest(texts) u;
    admitted := texts;
    IF NOT greeter_fits(len, size, k, growth, max_count, max_bytes) THEN
        -- Not all of them fit: each in turn, as Appends one at a time.
        admitted := '{}';
        k := 0;
        growth := 0;
        FOR i IN 0 .. cardinality(texts) - 1 LOOP
            t := texts[first + i];
            IF greeter_fits(len + k, size + growth, 1, octet_length(t), max_count, max_bytes) THEN
                admitted := admitted || t;
                k := k + 1;
                growth := growth + octet_length(t);
            ELSE
                refused := refused || i;
            END IF;
        END LOOP;
        IF k = 0 THEN
            RETURN;
        END IF;
        first := 1;
    END IF;
    UPDATE greeter_message_bounds SET n = n + k, bytes = bytes + growth RETURNING base + n - k, page_size INTO a, page;
    SELECT p.page_id, p.start, p.first_slot INTO last_id, last_start, last_first
    FROM greeter_message_pages p ORDER BY p.start DESC LIMIT 1;
    WHILE done < k LOOP
        here := a + done;
        IF last_id IS NULL OR here - last_start >= page THEN
            last_id := coalesce(last_id + 1, 0);
            last_start := here;
            last_first := 0;
            INSERT INTO greeter_message_pages (page_id, start) VALUES (last_id, here);
        END IF;
        take := least(k - done, page - (here - last_start));
        -- The slice's elements are numbered from 1 whatever the array's
        -- lower bound, and unnest keeps their order.
        INSERT INTO greeter_messages (page_id, slot, text)
        SELECT last_id, last_first + here - last_start + u.ord - 1, u.text
        FROM unnest(admitted[first + done : first + done + take - 1]) WITH ORDINALITY AS u(text, ord);
        done := done + take;
    END LOOP;
END
$$;

-- greeter_append_message is greeter_append_messages for one text, with
-- less work than taking an array apart; admitted says whether it was
-- appended.
CREATE FUNCTION greeter_append_message(new_text bytea, max_count bigint, max_bytes bigint,
    OUT len bigint, OUT size bigint, OUT admitted boolean)
LANGUAGE plpgsql AS $$
DECLARE
    a          bigint;  -- the position of the new message
    page       integer;
    last_id    bigint;
    last_start bigint;
    last_first bigint;
BEGIN
    SELECT b.n, b.bytes INTO len, size FROM greeter_message_bounds b FOR NO KEY UPDATE;
    admitted := greeter_fits(len, size, 1, octet_length(new_text), max_count, max_bytes);
    IF NOT admitted THEN
        RETURN;
    END IF;
    UPDATE greeter_message_bounds SET n = n + 1, bytes = bytes + octet_length(new_text)
    RETURNING base + n - 1, page_size INTO a, page;
    SELECT p.page_id, p.start, p.first_slot INTO last_id, last_start, last_first
    FROM greeter_message_pages p ORDER BY p.start DESC LIMIT 1;
    IF last_id IS NULL OR a - last_start >= page THEN
        last_id := coalesce(last_id + 1, 0);
        last_start := a;
        last_first := 0;
        INSERT INTO greeter_message_pages (page_id, start) VALUES (last_id, a);
    END IF;
    INSERT INTO greeter_messages (page_id, slot, text) VALUES (last_id, last_first + a - last_start, new_text);
END
$$;

-- greeter_replace_message sets the text of message i unless that grows
-- the texts past max_bytes, and returns the collection's length and
-- bytes before the change, how much the change grows the texts, and
-- whether it was made (never for an i out of range). It holds the
-- collection's advisory lock shared, as version 3 did (see 00002), then
-- locks the message's row, so that a concurrent Replace of the same
-- message is seen before the growth is computed from its old text, and
-- then the bounds row, where the check and the new bytes meet those of
-- every other writer. A change that does not grow the texts takes the
-- bounds row only to shrink bytes; one of the same size leaves it alone.
-- The locks are taken in the order advisory, message, bounds; an Append
-- locks no existing message and a Remove holds the advisory lock
-- exclusively, so none of them waits for another in a cycle.
CREATE FUNCTION greeter_replace_message(i bigint, new_text bytea, max_bytes bigint,
    OUT len bigint, OUT size bigint, OUT growth bigint, OUT replaced boolean)
LANGUAGE plpgsql AS $$
DECLARE
    first  bigint;
    a      bigint;  -- the position of message i, computed (and so not
                    -- overflowing) only for an index in range
    target greeter_messages%ROWTYPE;
BEGIN
    growth := 0;
    replaced := false;
    PERFORM pg_advisory_xact_lock_shared(2035117395872734295);
    SELECT b.base, b.n, b.bytes INTO first, len, size FROM greeter_message_bounds b;
    IF i < 0 OR i >= len THEN
        RETURN;
    END IF;
    a := first + i;
    SELECT m.* INTO target FROM greeter_messages m
    WHERE (m.page_id, m.slot) = (
        SELECT p.page_id, p.first_slot + a - p.start FROM greeter_message_pages p
        WHERE p.start <= a ORDER BY p.start DESC LIMIT 1
    )
    FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'greeter_messages has no row for message % of %', i, len;
    END IF;
    growth := octet_length(new_text) - octet_length(target.text);
    IF growth <> 0 THEN
        SELECT b.n, b.bytes INTO len, size FROM greeter_message_bounds b FOR NO KEY UPDATE;
        IF NOT greeter_fits(len, size, 0, growth, 0, max_bytes) THEN
            RETURN;
        END IF;
        UPDATE greeter_message_bounds SET bytes = bytes + growth;
    END IF;
    UPDATE greeter_messages SET text = new_text WHERE page_id = target.page_id AND slot = target.slot;
    replaced := true;
END
$$;

-- Version 3's functions, as the new ones without limits.
CREATE OR REPLACE FUNCTION greeter_append_message(new_text bytea) RETURNS void
LANGUAGE sql AS $$
    SELECT FROM greeter_append_message(new_text, 0, 0)
$$;
CREATE OR REPLACE FUNCTION greeter_append_messages(texts bytea[]) RETURNS void
LANGUAGE sql AS $$
    SELECT FROM greeter_append_messages(texts, 0, 0)
$$;
CREATE OR REPLACE FUNCTION greeter_replace_message(i bigint, new_text bytea) RETURNS bigint
LANGUAGE sql AS $$
    SELECT len FROM greeter_replace_message(i, new_text, 0)
$$;

-- Remove deletes one row a call, under the bounds row's lock that it
-- holds anyway: a row trigger costs it one more update of that row, where
-- a new body would repeat version 3's whole function.
CREATE FUNCTION greeter_message_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE greeter_message_bounds SET bytes = bytes - octet_length(OLD.text);
    RETURN NULL;
END
$$;
CREATE TRIGGER greeter_messages_bytes AFTER DELETE ON greeter_messages
    FOR EACH ROW EXECUTE FUNCTION greeter_message_deleted();
