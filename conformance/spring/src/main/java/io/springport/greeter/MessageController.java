package io.springport.greeter;

import java.util.List;
import java.util.UUID;

import jakarta.validation.Valid;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Endpoints 5 to 8 of the spec, and the two reads greeter adds (the list and
 * one message). DELETE answers 204, as greeter's does (the spec leaves it
 * open). A position that does not exist is an IndexOutOfBoundsException: 500.
 */
@RestController
@RequestMapping("/api/messages")
public class MessageController {

	private final MessageStore store;

	public MessageController(MessageStore store) {
		this.store = store;
	}

	@PostMapping
	@ResponseStatus(HttpStatus.CREATED)
	public void create(@Valid @RequestBody Message message) {
		store.add(message);
	}

	@PutMapping("/{index}")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	public void update(@PathVariable("index") int index, @Valid @RequestBody Message message) {
		store.set(index, message);
	}

	@DeleteMapping("/{index}")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	public void delete(@PathVariable("index") int index) {
		store.remove(index);
	}

	@GetMapping("/search")
	public void search(@RequestParam("param1") int param1,
			@RequestParam(name = "param2", required = false) UUID param2) {
	}

	@GetMapping
	public ResponseEntity<List<Message>> list() {
		List<Message> all = store.all();
		return ResponseEntity.ok().header("X-Total-Count", Integer.toString(all.size())).body(all);
	}

	@GetMapping("/{index}")
	public Message get(@PathVariable("index") int index) {
		return store.get(index);
	}
}
