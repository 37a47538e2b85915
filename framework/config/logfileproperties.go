package config

import "path/filepath"

// Spring's logging system sets the system properties LOG_FILE and
// LOG_PATH from logging.file.name and logging.file.path (LogFile's
// applyTo) before the application's settings are bound, so a setting may
// name them: Spring Boot's own rolling pattern is
// ${LOG_FILE}.%d{yyyy-MM-dd}.%i.gz. Here a placeholder that no source
// answers is answered the same way.
const (
	propLogFile = "LOG_FILE"
	propLogPath = "LOG_PATH"
)

// logFileProperty resolves LOG_FILE (logging.file.name, else spring.log
// in logging.file.path) and LOG_PATH (logging.file.path); ok is false
// for another name, or when the settings name no file.
func (r *placeholderResolver) logFileProperty(name string, depth int) (string, bool, error) {
	if name != propLogFile && name != propLogPath {
		return "", false, nil
	}
	path, err := r.placeholder("logging.file.path:", depth)
	if err != nil || name == propLogPath {
		return path, path != "", err
	}
	file, err := r.placeholder("logging.file.name:", depth)
	if err != nil || file != "" {
		return file, file != "", err
	}
	if path == "" {
		return "", false, nil
	}
	return filepath.Join(path, "spring.log"), true, nil
}
