package io.springport.greeter;

import java.util.List;
import java.util.UUID;

import jakarta.validation.Valid;

import org.springframework.beans.factory.annotation.Value;
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
import org.springframework.web.server.ResponseStatusException;

/**
 * Endpoints 5 to 8 of the spec, and the two reads greeter adds (the list,
 * whole or in pages, and one message). DELETE answers 204, as greeter's does (the spec leaves it
 * open). A position that does not exist is an IndexOutOfBoundsException: 500.
 */
@RestController
@RequestMapping("/api/messages")
public class MessageController {

	private final MessageStore store;

	private final int defaultPageSize;

	private final int maxPageSize;

	public MessageController(MessageStore store,
			@Value("${spring.data.web.pageable.default-page-size:20}") int defaultPageSize,
			@Value("${spring.data.web.pageable.max-page-size:2000}") int maxPageSize) {
		this.store = store;
		this.defaultPageSize = defaultPageSize;
		this.maxPageSize = maxPageSize;
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

	/**
	 * The whole list, or with page or size one page of it (Spring Data's
	 * parameter names and its spring.data.web.pageable sizes), with a Link
	 * header to the first, previous, next and last pages, as greeter's.
	 */
	@GetMapping
	public ResponseEntity<List<Message>> list(@RequestParam(name = "page", required = false) Integer page,
			@RequestParam(name = "size", required = false) Integer size) {
		List<Message> all = store.all();
		ResponseEntity.BodyBuilder ok = ResponseEntity.ok().header("X-Total-Count", Integer.toString(all.size()));
		if (page == null && size == null) {
			return ok.body(all);
		}
		int number = page == null ? 0 : page;
		if (number < 0) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"Parameter 'page' must be 0 or more, not " + number + ".");
		}
		int pageSize = size == null ? defaultPageSize : size;
		if (pageSize < 1) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Parameter 'size' must be 1 or more, not " + pageSize + ".");
		}
		pageSize = Math.min(pageSize, maxPageSize);
		long from = Math.min((long) number * pageSize, all.size());
		long to = Math.min(from + pageSize, all.size());
		int last = all.isEmpty() ? 0 : (all.size() - 1) / pageSize;
		StringBuilder link = new StringBuilder();
		appendLink(link, 0, pageSize, "first");
		if (number > 0) {
			appendLink(link, Math.min(number - 1, last), pageSize, "prev");
		}
		if (number < last) {
			appendLink(link, number + 1, pageSize, "next");
		}
		appendLink(link, last, pageSize, "last");
		return ok.header("Link", link.toString()).body(all.subList((int) from, (int) to));
	}

	private static void appendLink(StringBuilder b, int page, int size, String rel) {
		if (b.length() > 0) {
			b.append(", ");
		}
		b.append("</api/messages?page=").append(page).append("&size=").append(size).append(">; rel=\"").append(rel).append('"');
	}

	@GetMapping("/{index}")
	public Message get(@PathVariable("index") int index) {
		return store.get(index);
	}
}
