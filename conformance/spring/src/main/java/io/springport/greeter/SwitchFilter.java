package io.springport.greeter;

import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Leaves out Spring Boot's auto-configurations of the parts that are
 * switched off (see {@link Switches}), so that the application starts and is
 * healthy with nothing configured, as greeter does:
 * <ul>
 * <li>security: every Spring Security auto-configuration, so that with no
 * user and no JWT issuer there is no filter chain at all (no generated
 * password, no security headers, no firewall), rather than a chain that
 * permits everything. {@link SecurityConfig} is the chain when it is on;</li>
 * <li>Redis and Spring Session: with the starters on the class path Boot
 * would make a Redis connection factory, a session repository and a redis
 * health contributor, and /actuator/health would be DOWN without Redis.
 * Without them sessions are the servlet container's;</li>
 * <li>DataSourceAutoConfiguration: without a URL, and with no embedded
 * database on the class path, Boot refuses to start.</li>
 * </ul>
 * This is a filter rather than spring.autoconfigure.exclude because the
 * auto-configurations' packages differ between Boot 4 and 3.5 (Boot 4 split
 * them into modules) and because the choice depends on other settings; it is
 * registered in META-INF/spring.factories, as Boot's own filters are.
 */
public class SwitchFilter implements AutoConfigurationImportFilter, EnvironmentAware {

	private Environment environment;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public boolean[] match(String[] classes, AutoConfigurationMetadata metadata) {
		boolean security = Switches.security(environment);
		boolean redis = Switches.redisSession(environment);
		boolean datasource = Switches.datasource(environment);
		boolean[] match = new boolean[classes.length];
		for (int i = 0; i < classes.length; i++) {
			String c = classes[i];
			match[i] = c == null || !c.startsWith("org.springframework.boot.")
					|| !((!security && c.contains(".security."))
							|| (!redis && (c.contains(".redis.") || c.contains(".session.")))
							|| (!datasource && c.endsWith(".DataSourceAutoConfiguration")));
		}
		return match;
	}
}
