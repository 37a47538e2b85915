package io.springport.springenv;

import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;

/**
 * The working directory of one case. A JVM's working directory cannot
 * change (java.io.File caches user.dir when it starts), and one JVM loads
 * every case; so this loader, which SpringApplication hands to the
 * config-data resolvers, reads a relative file: location from the case's
 * directory instead. Spring's resolvers pass every location they read
 * through a resource loader: the default optional:file:./ and
 * file:./config/ ones, app.config.location, imports (a path without a
 * prefix becomes a file: one in Spring's LocationResourceLoader, and an
 * import relative to a file is prefixed with that file's location) and
 * configtree: directories. Absolute locations and classpath: ones are
 * read as Spring reads them.
 */
final class CaseResourceLoader extends DefaultResourceLoader {

	private final String base;

	CaseResourceLoader(String base, ClassLoader classLoader) {
		super(classLoader);
		this.base = base.endsWith("/") ? base : base + "/";
	}

	@Override
	public Resource getResource(String location) {
		if (location.startsWith("file:")) {
			String path = location.substring("file:".length());
			if (!path.startsWith("/")) {
				return new FileSystemResource(this.base + path);
			}
		}
		return super.getResource(location);
	}

}
