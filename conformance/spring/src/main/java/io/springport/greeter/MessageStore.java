package io.springport.greeter;

import java.util.List;

/**
 * The ordered message collection. A position that does not exist throws
 * IndexOutOfBoundsException, which nothing handles: a 500, as the spec says.
 */
public interface MessageStore {

	void add(Message message);

	List<Message> all();

	Message get(int index);

	void set(int index, Message message);

	void remove(int index);

	int count();
}
