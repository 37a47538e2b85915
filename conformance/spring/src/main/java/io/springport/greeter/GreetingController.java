package io.springport.greeter;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Endpoints 1 to 4 of the spec. */
@RestController
@RequestMapping("/api")
public class GreetingController {

	private final String greeting;

	public GreetingController(@Value("${app.greeting}") String greeting) {
		this.greeting = greeting;
	}

	@GetMapping("/hello")
	public Message hello() {
		return new Message(greeting);
	}

	@GetMapping("/hi")
	public String hi() {
		return "Hi";
	}

	@GetMapping("/nothing")
	public void nothing() {
	}

	@GetMapping("/hello/{id}")
	public Message helloId(@PathVariable("id") int id) {
		return new Message(greeting + " " + id);
	}
}
