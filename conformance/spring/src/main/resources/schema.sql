-- The message collection, in creation (id) order; spring.sql.init.mode=always runs it.
create table if not exists message (
    id bigserial primary key,
    text text not null
);
