-- The message collection: see the package comment of postgres for why it
-- is laid out this way.

-- The one row that says where the collection starts and how long it is.
-- Every writer locks it: Append updates it (FOR NO KEY UPDATE), Replace
-- takes FOR KEY SHARE, which only Remove's FOR UPDATE conflicts with.
-- Message i is stored at position base + i.
CREATE TABLE greeter_message_bounds (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    base     bigint  NOT NULL,
    n        bigint  NOT NULL CHECK (n >= 0)
);
INSERT INTO greeter_message_bounds (base, n) VALUES (0, 0);

-- Positions are dense from base to base + n - 1. The unique constraint is
-- checked at commit, so that Remove can shift a run of positions by one
-- with a single UPDATE, whose intermediate states collide.
CREATE TABLE greeter_messages (
    position bigint NOT NULL,
    text     text   NOT NULL,
    CONSTRAINT greeter_messages_position_key UNIQUE (position) DEFERRABLE INITIALLY DEFERRED
);

-- greeter_replace_message sets the text of message i and returns the
-- length of the collection as it was while the change was made. It is
-- VOLATILE (the default), so in READ COMMITTED each statement sees what
-- was committed before it started: the UPDATE sees any Remove that the
-- lock waited for.
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

-- greeter_remove_message deletes message i, closes the gap by moving
-- whichever side of it is shorter, and returns the length of the
-- collection before the removal.
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
        -- Fewer messages before the gap than after it: move them one
        -- position later, and start the collection one position later.
        UPDATE greeter_messages SET position = position + 1 WHERE position >= first AND position < target;
        UPDATE greeter_message_bounds SET base = base + 1, n = n - 1;
    ELSE
        UPDATE greeter_messages SET position = position - 1 WHERE position > target;
        UPDATE greeter_message_bounds SET n = n - 1;
    END IF;
    RETURN len;
END
$$;
