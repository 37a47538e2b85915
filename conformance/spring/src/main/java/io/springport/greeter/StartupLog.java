package io.springport.greeter;

import java.util.Date;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** Logs the example settings, the date format and the switches, once, at start-up. */
@Component
public class StartupLog implements ApplicationRunner {

	private static final Logger log = LoggerFactory.getLogger(StartupLog.class);

	private final ExampleProperties example;

	private final DateFormatProvider dates;

	private final Environment env;

	public StartupLog(ExampleProperties example, DateFormatProvider dates, Environment env) {
		this.example = example;
		this.dates = dates;
		this.env = env;
	}

	@Override
	public void run(ApplicationArguments args) {
		log.info("app.example.prop-a={} app.example.prop-b={} date format: {}", example.propA(), example.propB(),
				dates.dateFormat().format(new Date(0)));
		log.info("security {}, messages {}, sessions {}",
				Switches.security(env) ? "on" : "off", Switches.datasource(env) ? "in PostgreSQL" : "in memory",
				Switches.redisSession(env) ? "in Redis" : "in the servlet container");
	}
}
