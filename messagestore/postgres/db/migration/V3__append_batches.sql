-- Appends in batches: see the package comment of postgres (Concurrency)
-- for why.
--
-- Every Append holds the bounds row locked until its commit, so appends
-- are serialized on the commit's WAL flush: a few hundred a second however
-- many instances there are. The store now gathers the Appends that arrive
-- while one is in flight and sends them together, in one call of
-- greeter_append_messages, one transaction and one flush.
--
-- Only a function is added: the layout is unchanged, and
-- greeter_append_message stays: the store still sends a batch of one with
-- it (it does less work than taking an array apart), and instances still
-- running the binary of version 2 keep appending with it while those of
-- version 3 start.

-- greeter_append_messages adds the messages of texts after the last one,
-- in the order of the array, as consecutive messages. It locks the bounds
-- row as greeter_append_message does, once for the whole batch, and then
-- fills the last page and opens as many new ones as the batch needs, each
-- with one INSERT of the texts that go into it. An empty array (or NULL)
-- changes nothing; an array of more than one dimension, or with a NULL
-- element, is refused before anything is changed.
CREATE FUNCTION greeter_append_messages(texts bytea[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    k          bigint := coalesce(cardinality(texts), 0);  -- messages to add
    a          bigint;  -- the position of the first of them
    size       integer;
    last_id    bigint;
    last_start bigint;
    last_first bigint;
    done       bigint := 0;  -- how many of them are in place
    here       bigint;       -- the position of the next one
    take       bigint;       -- how many go into the current page
BEGIN
    IF k = 0 THEN
        RETURN;
    END IF;
    IF array_ndims(texts) <> 1 OR array_position(texts, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'greeter_append_messages takes a one-dimensional array of texts without NULLs';
    END IF;
    UPDATE greeter_message_bounds SET n = n + k RETURNING base + n - k, page_size INTO a, size;
    SELECT p.page_id, p.start, p.first_slot INTO last_id, last_start, last_first
    FROM greeter_message_pages p ORDER BY p.start DESC LIMIT 1;
    WHILE done < k LOOP
        here := a + done;
        IF last_id IS NULL OR here - last_start >= size THEN
            last_id := coalesce(last_id + 1, 0);
            last_start := here;
            last_first := 0;
            INSERT INTO greeter_message_pages (page_id, start) VALUES (last_id, here);
        END IF;
        take := least(k - done, size - (here - last_start));
        -- The slice's elements are numbered from 1 whatever the array's
        -- lower bound, and unnest keeps their order.
        INSERT INTO greeter_messages (page_id, slot, text)
        SELECT last_id, last_first + here - last_start + u.ord - 1, u.text
        FROM unnest(texts[array_lower(texts, 1) + done : array_lower(texts, 1) + done + take - 1])
            WITH ORDINALITY AS u(text, ord);
        done := done + take;
    END LOOP;
END
$$;
