package io.springport.greeter;

import java.util.ArrayList;
import java.util.List;

/** The messages in a list, in creation order: the default. */
public class InMemoryMessageStore implements MessageStore {

	private final List<Message> messages = new ArrayList<>();

	@Override
	public synchronized void add(Message message) {
		messages.add(message);
	}

	@Override
	public synchronized List<Message> all() {
		return List.copyOf(messages);
	}

	@Override
	public synchronized Message get(int index) {
		return messages.get(index);
	}

	@Override
	public synchronized void set(int index, Message message) {
		messages.set(index, message);
	}

	@Override
	public synchronized void remove(int index) {
		messages.remove(index);
	}

	@Override
	public synchronized int count() {
		return messages.size();
	}
}
