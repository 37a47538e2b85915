package config

// Some environment variables are not settings but belong to another
// standard that the service follows as well: OpenTelemetry's
// OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_SERVICE_NAME are read by every
// OpenTelemetry SDK, whatever the language, and operators set them for
// every service of a deployment. They are read under their exact names,
// from the environment alone: no settings file or argument sets them, no
// relaxed name either, and --help does not list them among the settings.

// BindVariable reads the environment variable name and converts it with
// parse; a variable that is unset or empty gives def (OpenTelemetry's
// rule: an empty value is the same as none). A value that does not
// convert is recorded as Bind records a setting's, as a SettingError
// that names the variable, its value (masked when the name is Sensitive)
// and the reason, and def is returned.
func BindVariable[T any](b *Binder, name string, def T, parse func(string) (T, error)) T {
	v, ok := b.env.variable(name)
	if !ok || v.Raw == "" {
		return def
	}
	t, err := parse(v.Raw)
	if err != nil {
		b.errs = append(b.errs, &SettingError{Value: v, Reason: err.Error()})
		return def
	}
	return t
}

// variable looks the environment variable name up as the service was
// given it (Options.LookupEnv), placeholders left as they are.
func (e *Environment) variable(name string) (Value, bool) {
	for _, src := range e.sources {
		if src.lookupEnv == nil {
			continue
		}
		raw, ok := src.lookupEnv(name)
		if !ok {
			return Value{}, false
		}
		v := Value{Key: name, Raw: raw, Resolved: raw, Source: src.name, Origin: "environment variable " + name}
		if Sensitive(name) {
			v.secrets = []string{raw}
		}
		return v, true
	}
	return Value{}, false
}
