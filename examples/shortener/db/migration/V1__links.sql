-- Short links: a code, the URL it stands for, when it was made, and how
-- often it was followed.
CREATE TABLE links (
    code    text PRIMARY KEY,
    url     text NOT NULL,
    created timestamptz NOT NULL DEFAULT now(),
    hits    bigint NOT NULL DEFAULT 0
);

CREATE INDEX links_created ON links (created);
