package io.springport.greeter;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Endpoints 9 and 10: each has its own injected RandomNumber. Prototype (the
 * default): two instances, val-a and val-b differ and each stays fixed;
 * request: a new number per request; session: one per HTTP session;
 * singleton: val-a equals val-b.
 */
@RestController
@RequestMapping("/api/number")
public class NumberController {

	private final RandomNumber a;

	private final RandomNumber b;

	public NumberController(RandomNumber a, RandomNumber b) {
		this.a = a;
		this.b = b;
	}

	@GetMapping("/val-a")
	public int valA() {
		return a.value();
	}

	@GetMapping("/val-b")
	public int valB() {
		return b.value();
	}
}
