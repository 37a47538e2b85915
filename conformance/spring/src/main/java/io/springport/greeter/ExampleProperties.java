package io.springport.greeter;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** The spec's example settings: app.example.prop-a, and prop-b, which the dev profile overrides. */
@ConfigurationProperties("app.example")
public record ExampleProperties(String propA, int propB) {
}
