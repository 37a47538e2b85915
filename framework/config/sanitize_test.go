package config

import "testing"

func TestSanitize(t *testing.T) {
	t.Parallel()
	tests := []struct{ key, value, want string }{
		{"app.datasource.password", "hunter2", Mask},
		{"APP_DATASOURCE_PASSWORD", "hunter2", Mask},
		{"db.Secret", "s", Mask},
		{"api.key", "k", Mask},
		{"auth.token", "t", Mask},
		{"aws.credentials.id", "c", Mask},
		{"app.application.json", `{"db":{"password":"hunter2"}}`, Mask},
		{"APP_APPLICATION_JSON", `{"db":{"password":"hunter2"}}`, Mask},
		{"app.greeting", "Hello", "Hello"},
		{"management.opentelemetry.tracing.export.otlp.headers.authorization", "Bearer x", Mask},
		{"MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_HEADERS_AUTHORIZATION", "Bearer x", Mask},
		{"management.otlp.tracing.headers.authorization", "Bearer x", Mask}, // Spring Boot 3.5's name
		{"management.otlp.tracing.headers.X-Tenant", "a", Mask},
		{"MANAGEMENT_OTLP_TRACING_HEADERS_AUTHORIZATION", "Bearer x", Mask},
		{"OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20x", Mask},
		{"OTEL_EXPORTER_OTLP_TRACES_HEADERS", "api-key=k", Mask},
		{"server.max-http-request-header-size", "8KB", "8KB"},
		{"app.datasource.url", "postgres://app:hunter2@db:5432/greeter?sslmode=disable", "postgres://app:" + Mask + "@db:5432/greeter?sslmode=disable"},
		{"app.datasource.url", "postgres://app@db/greeter", "postgres://app@db/greeter"},
		{"app.datasource.url", "postgres://db/greeter", "postgres://db/greeter"},
		{"app.data.redis.url", "redis://:pa@ss#word@cache:6379/0", "redis://:" + Mask + "@cache:6379/0"},
		{"app.data.redis.url", "redis://:s3cret@cache", "redis://:" + Mask + "@cache"},
		{"app.data.redis.url", "redis://u:pa/ss@cache/1", "redis://u:" + Mask + "@cache/1"},
		{"app.note", "mail me: a@b.c", "mail me: a@b.c"},
		{"app.datasource.url", "postgres://db/shop?user=app&password=hunter2&sslmode=disable", "postgres://db/shop?user=app&password=" + Mask + "&sslmode=disable"},
		{"app.datasource.url", "postgres://app:hunter2@db/shop?PASSWORD=again", "postgres://app:" + Mask + "@db/shop?PASSWORD=" + Mask},
		{"app.data.redis.url", "rediss://cache/0?client_secret=s&x=1#frag", "rediss://cache/0?client_secret=" + Mask + "&x=1#frag"},
		{"app.datasource.url", "postgres://db/shop?sslmode=disable", "postgres://db/shop?sslmode=disable"},
		{"spring.application.json", `{"db":{"password":"hunter2"}}`, Mask},
		{"SPRING_APPLICATION_JSON", `{"db":{"password":"hunter2"}}`, Mask},
		{"app.datasource.url", "jdbc:postgresql://db/shop?user=app&password=hunter2", "jdbc:postgresql://db/shop?user=app&password=" + Mask},
		{"app.datasource.url", "jdbc:sqlserver://db:1433;databaseName=shop;user=sa;password=hunter2;encrypt=true",
			"jdbc:sqlserver://db:1433;databaseName=shop;user=sa;password=" + Mask + ";encrypt=true"},
	}
	for _, tt := range tests {
		if got := Sanitize(tt.key, tt.value); got != tt.want {
			t.Errorf("Sanitize(%q, %q) = %q, want %q", tt.key, tt.value, got, tt.want)
		}
	}
}

func TestSettingErrorNeverShowsASecret(t *testing.T) {
	t.Parallel()
	tests := []struct{ key, raw, origin, want string }{
		{"app.datasource.url", "mysql://app:hunter2@db/x", "command-line argument --app.datasource.url=mysql://app:hunter2@db/x",
			`setting app.datasource.url="mysql://app:******@db/x" from command-line argument --app.datasource.url is invalid: bad`},
		{"app.datasource.password", "hunter2", "environment variable APP_DATASOURCE_PASSWORD",
			`setting app.datasource.password="******" from environment variable APP_DATASOURCE_PASSWORD is invalid: bad`},
		{"server.port", "eighty", "command-line argument --server.port=eighty",
			`setting server.port="eighty" from command-line argument --server.port=eighty is invalid: bad`},
	}
	for _, tt := range tests {
		err := &SettingError{Value: Value{Key: tt.key, Raw: tt.raw, Origin: tt.origin}, Reason: "bad"}
		if got := err.Error(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}
