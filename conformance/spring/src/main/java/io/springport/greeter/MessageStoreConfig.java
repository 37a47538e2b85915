package io.springport.greeter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * In memory by default; JDBC (PostgreSQL) when spring.datasource.url is set,
 * with the JdbcTemplate Boot makes then (schema.sql makes the table, as
 * spring.sql.init.mode=always asks).
 */
@Configuration(proxyBeanMethods = false)
public class MessageStoreConfig {

	@Bean
	MessageStore messageStore(Environment env, ObjectProvider<JdbcTemplate> jdbc) {
		if (Switches.datasource(env)) {
			return new JdbcMessageStore(jdbc.getObject());
		}
		return new InMemoryMessageStore();
	}
}
