package logfile

import (
	"path/filepath"
	"strings"

	"github.com/springport/greeter/framework/config"
)

// Spring Boot's keys of the log file (LogFile) and of Logback's rolling
// policy (RollingPolicySystemProperty).
const (
	NameKey         = "logging.file.name"
	PathKey         = "logging.file.path"
	policyPrefix    = "logging.logback.rollingpolicy."
	PatternKey      = policyPrefix + "file-name-pattern"
	MaxFileSizeKey  = policyPrefix + "max-file-size"
	MaxHistoryKey   = policyPrefix + "max-history"
	TotalSizeCapKey = policyPrefix + "total-size-cap"
	CleanKey        = policyPrefix + "clean-history-on-start"
)

// DefaultPattern is Spring Boot's file-name pattern (file-appender.xml,
// DefaultLogbackConfiguration): ${LOG_FILE} is the file.
const DefaultPattern = "${LOG_FILE}.%d{yyyy-MM-dd}.%i.gz"

// Spring Boot 2.4 moved the rolling policy's settings under
// logging.logback.rollingpolicy.*; Spring Boot 4.0 still reads the old
// names, deprecated (RollingPolicySystemProperty's
// deprecatedApplicationPropertyName), and its metadata names each
// replacement. They are read here too, with a warning (config.Renamed).
var _ = config.Renamed(
	config.Rename{Old: "logging.file.max-size", New: MaxFileSizeKey, Since: "2.4", Source: metadata},
	config.Rename{Old: "logging.file.max-history", New: MaxHistoryKey, Since: "2.4", Source: metadata},
	config.Rename{Old: "logging.file.total-size-cap", New: TotalSizeCapKey, Since: "2.4", Source: metadata},
	config.Rename{Old: "logging.file.clean-history-on-start", New: CleanKey, Since: "2.4", Source: metadata},
	config.Rename{Old: "logging.pattern.rolling-file-name", New: PatternKey, Since: "2.4", Source: metadata},
)

const metadata = "core/spring-boot/src/main/resources/META-INF/additional-spring-configuration-metadata.json"

// Settings are the log file's: none when File is empty.
type Settings struct {
	// File is logging.file.name, or spring.log in logging.file.path, as
	// Spring's LogFile makes it; empty for no file.
	File string
	// Key is the setting that named File, for a refusal that names it.
	Key    string
	Policy Policy
}

// Bind reads logging.file.* and logging.logback.rollingpolicy.* through b.
// A pattern that cannot be used is refused with its value and origin.
func Bind(b *config.Binder) Settings {
	var s Settings
	name := config.Bind(b, NameKey, "", config.String, "the log file: every line goes to it as well as to stdout, in logging.structured.format.file's format, else logging.format's, archived by logging.logback.rollingpolicy.*; a relative name is from the working directory; empty for none (wins over logging.file.path)")
	path := config.Bind(b, PathKey, "", config.String, "the folder of the log file spring.log, when logging.file.name is not set")
	switch {
	case name != "":
		s.File, s.Key = name, NameKey
	case path != "":
		s.File, s.Key = filepath.Join(path, "spring.log"), PathKey
	}
	pattern := config.Bind(b, PatternKey, DefaultPattern, config.String, "the names of the archives: the date of %d names their period, its shortest unit (daily for yyyy-MM-dd, hourly with HH), %i their index in it, and a .gz or .zip suffix compresses them; ${LOG_FILE} is the log file")
	s.Policy = Policy{
		MaxFileSize:         int64(config.Bind(b, MaxFileSizeKey, config.ByteSize(10<<20), config.DataSize, "the size past which the log file is archived, before the line that would pass it")),
		MaxHistory:          config.Bind(b, MaxHistoryKey, 7, config.IntIn(0, 1<<20), "how many periods of the pattern's %d, before the current one, keep their archives; 0 keeps all"),
		TotalSizeCap:        int64(config.Bind(b, TotalSizeCapKey, config.ByteSize(0), sizeOrZero, "the most the archives may take together, the oldest removed first; 0 for no bound (applied only with a max-history)")),
		CleanHistoryOnStart: config.Bind(b, CleanKey, false, config.Bool, "remove the archives that max-history and total-size-cap do not keep at start-up, not only after archiving"),
	}
	if s.File == "" {
		return s
	}
	// Spring sets LOG_FILE and LOG_PATH from the settings; a pattern set
	// with them has them resolved already, Spring's default does not.
	pattern = strings.ReplaceAll(pattern, "${LOG_FILE}", s.File)
	pattern = strings.ReplaceAll(pattern, "${LOG_PATH}", path)
	p, err := ParsePattern(pattern)
	if err != nil {
		if b.IsSet(PatternKey) {
			b.Refuse(PatternKey, err.Error())
		} else {
			b.Refuse(s.Key, "the archives' default names from it cannot be used: "+err.Error())
		}
		return Settings{}
	}
	s.Policy.Pattern = p
	return s
}

// sizeOrZero is config.DataSize that takes 0 (0B, 0MB) for no bound.
func sizeOrZero(s string) (config.ByteSize, error) {
	trimmed := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	if strings.TrimLeft(strings.TrimRight(trimmed, "KMGTB"), "0") == "" && strings.HasPrefix(trimmed, "0") {
		return 0, nil
	}
	return config.DataSize(s)
}

// Open opens the file the settings name; nil without one. A file that
// cannot be written is refused through b, naming the setting that named
// it as written, its value and origin. report is Options.Report.
func (s Settings) Open(b *config.Binder, report func(error)) (*Writer, error) {
	if s.File == "" {
		return nil, nil
	}
	w, err := Open(Options{Name: s.File, Policy: s.Policy, Report: report})
	if err != nil {
		b.Refuse(s.Key, "the log file "+s.File+" cannot be written: "+err.Error())
		return nil, b.Err()
	}
	return w, nil
}

// boot1Names are the log file's settings before Spring Boot 2.2, which
// its metadata still names, deprecated at level error (not read).
var boot1Names = map[string]string{"logging.file": NameKey, "logging.path": PathKey}

// KeyHint says what an unknown key meant, when it is one of boot1Names.
func KeyHint(key string) string {
	if renamed, ok := boot1Names[key]; ok {
		return "Spring Boot 1's name, not read (nor by Spring Boot 3 or 4); it is " + renamed
	}
	return ""
}
