package io.springport.greeter;

import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The messages in PostgreSQL (table message, made by schema.sql), when
 * spring.datasource.url is set; a position is the row's place in id order.
 */
public class JdbcMessageStore implements MessageStore {

	private static final String AT = "(select id from message order by id offset ? limit 1)";

	private final JdbcTemplate jdbc;

	public JdbcMessageStore(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public void add(Message message) {
		jdbc.update("insert into message (text) values (?)", message.text());
	}

	@Override
	public List<Message> all() {
		return jdbc.query("select text from message order by id", (rs, n) -> new Message(rs.getString(1)));
	}

	@Override
	public Message get(int index) {
		check(index);
		List<Message> found = jdbc.query("select text from message order by id offset ? limit 1",
				(rs, n) -> new Message(rs.getString(1)), index);
		if (found.isEmpty()) {
			throw outOfBounds(index);
		}
		return found.get(0);
	}

	@Override
	public void set(int index, Message message) {
		check(index);
		if (jdbc.update("update message set text = ? where id = " + AT, message.text(), index) == 0) {
			throw outOfBounds(index);
		}
	}

	@Override
	public void remove(int index) {
		check(index);
		if (jdbc.update("delete from message where id = " + AT, index) == 0) {
			throw outOfBounds(index);
		}
	}

	@Override
	public int count() {
		Integer n = jdbc.queryForObject("select count(*) from message", Integer.class);
		return n == null ? 0 : n;
	}

	private void check(int index) {
		if (index < 0) {
			throw outOfBounds(index);
		}
	}

	private IndexOutOfBoundsException outOfBounds(int index) {
		return new IndexOutOfBoundsException("Index " + index + " out of bounds for length " + count());
	}
}
