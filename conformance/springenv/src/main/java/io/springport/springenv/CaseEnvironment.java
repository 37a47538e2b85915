package io.springport.springenv;

import java.util.HashMap;
import java.util.Map;

import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.ConfigurablePropertyResolver;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * A case's environment: its variables in place of the process's, and no
 * system properties (the JVM's would be settings no case set). Otherwise
 * it is what SpringApplication makes for a non-web application, Spring
 * Boot's package-private ApplicationEnvironment, whose two differences
 * from a StandardEnvironment are copied here: profiles are what the
 * config-data processing decides, never read by the environment itself
 * from spring.profiles.active or spring.profiles.default, and properties
 * are resolved through the configuration property sources (relaxed
 * names).
 */
final class CaseEnvironment extends StandardEnvironment {

	CaseEnvironment(Map<String, String> variables) {
		MutablePropertySources sources = getPropertySources();
		sources.replace(SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
				new MapPropertySource(SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, new HashMap<>()));
		sources.replace(SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
				new SystemEnvironmentPropertySource(SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new HashMap<>(variables)));
	}

	@Override
	protected String doGetActiveProfilesProperty() {
		return null;
	}

	@Override
	protected String doGetDefaultProfilesProperty() {
		return null;
	}

	@Override
	protected ConfigurablePropertyResolver createPropertyResolver(MutablePropertySources propertySources) {
		return ConfigurationPropertySources.createPropertyResolver(propertySources);
	}

}
