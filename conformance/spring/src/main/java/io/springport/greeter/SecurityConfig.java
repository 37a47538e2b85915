package io.springport.greeter;

import java.util.Arrays;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Security, only when a user (spring.security.user.name or .password) or a
 * JWT key source (spring.security.oauth2.resourceserver.jwt.issuer-uri,
 * jwk-set-uri or public-key-location) is configured, as greeter's. Otherwise
 * {@link SwitchFilter} leaves Spring Security's auto-configurations out and
 * this class is skipped: no filter chain at all. That is chosen over a chain
 * that permits everything because such a chain would still add Spring
 * Security's headers and firewall, which greeter with security off does not.
 *
 * The rules are greeter's (docs/security.md), which are Boot 3's defaults
 * plus its two settings, read here under spring.: health is open; the other
 * management endpoints need a user (with spring.security.actuator.roles, one
 * of those roles), unless spring.security.permit-all names one under
 * /actuator/; the paths of spring.security.permit-all are open; everything
 * else needs a user. CSRF is off, as for any API without browser forms.
 * The user's HTTP Basic and the UserDetailsService are Boot's; the JwtDecoder
 * is Boot's resource server's.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(Switches.SecurityOn.class)
@EnableWebSecurity
public class SecurityConfig {

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http, Environment env) throws Exception {
		String[] permit = list(env, "spring.security.permit-all");
		String[] roles = Arrays.stream(list(env, "spring.security.actuator.roles"))
				.map(r -> r.startsWith("ROLE_") ? r.substring(5) : r)
				.toArray(String[]::new);
		String[] actuatorPermit = Arrays.stream(permit)
				.filter(p -> p.startsWith("/actuator/"))
				.toArray(String[]::new);
		http.authorizeHttpRequests(a -> {
			a.requestMatchers("/actuator/health", "/actuator/health/**").permitAll();
			if (actuatorPermit.length > 0) {
				a.requestMatchers(actuatorPermit).permitAll();
			}
			if (roles.length > 0) {
				a.requestMatchers("/actuator", "/actuator/**").hasAnyRole(roles);
			}
			else {
				a.requestMatchers("/actuator", "/actuator/**").authenticated();
			}
			if (permit.length > 0) {
				a.requestMatchers(permit).permitAll();
			}
			a.anyRequest().authenticated();
		});
		http.csrf(c -> c.disable());
		if (Switches.user(env)) {
			http.httpBasic(Customizer.withDefaults());
		}
		if (Switches.jwt(env)) {
			http.oauth2ResourceServer(o -> o.jwt(Customizer.withDefaults()));
		}
		return http.build();
	}

	private static String[] list(Environment env, String key) {
		return Arrays.stream(env.getProperty(key, String[].class, new String[0]))
				.map(String::trim)
				.filter(s -> !s.isEmpty())
				.toArray(String[]::new);
	}
}
