package io.springport.greeter;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * The three settings that switch a part on, as they do greeter's: security
 * (a user or a JWT key source), the JDBC message store (a datasource URL) and
 * Spring Session in Redis (spring.session.store-type=redis). Without them the
 * application starts with no database, no Redis and no security at all.
 *
 * Spring Boot's environment resolves relaxed names here too
 * (SPRING_DATASOURCE_URL finds spring.datasource.url).
 */
final class Switches {

	private Switches() {
	}

	/** spring.security.user.name or .password is set: HTTP Basic with that user. */
	static boolean user(Environment env) {
		return env.getProperty("spring.security.user.name") != null
				|| env.getProperty("spring.security.user.password") != null;
	}

	/** A JWT key source is set: bearer tokens, as Boot's resource server reads them. */
	static boolean jwt(Environment env) {
		String p = "spring.security.oauth2.resourceserver.jwt.";
		return StringUtils.hasText(env.getProperty(p + "issuer-uri"))
				|| StringUtils.hasText(env.getProperty(p + "jwk-set-uri"))
				|| StringUtils.hasText(env.getProperty(p + "public-key-location"));
	}

	static boolean security(Environment env) {
		return user(env) || jwt(env);
	}

	/** spring.datasource.url is set (not empty): the messages live in PostgreSQL. */
	static boolean datasource(Environment env) {
		return StringUtils.hasText(env.getProperty("spring.datasource.url"));
	}

	/**
	 * spring.session.store-type=redis: HTTP sessions in Redis. The key is
	 * Boot 2's (Boot 3 dropped it, as only one store is ever on the class
	 * path); greeter reads it as app.session.store-type.
	 */
	static boolean redisSession(Environment env) {
		return "redis".equalsIgnoreCase(env.getProperty("spring.session.store-type", "").trim());
	}

	static final class SecurityOn implements Condition {
		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return security(context.getEnvironment());
		}
	}

	static final class DatasourceOn implements Condition {
		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return datasource(context.getEnvironment());
		}
	}
}
