package io.springport.greeter;

import java.io.Serializable;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The number component of the spec (section 2.2): its integer is chosen when
 * the instance is made, not on each call. Its scope is app.number.scope
 * (see {@link NumberScope}); not final, so that a scoped proxy can extend it,
 * and serializable, so that a session-scoped one can live in Redis.
 */
public class RandomNumber implements Serializable {

	private static final long serialVersionUID = 1L;

	private final int value = ThreadLocalRandom.current().nextInt();

	public int value() {
		return value;
	}
}
