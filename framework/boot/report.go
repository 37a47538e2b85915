package boot

// The report a failed start prints is worded here, in Spring Boot's
// words, from the structured data config gives (the profiles line every
// start logs is profile.Message).

import (
	"errors"
	"fmt"
	"strings"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// startupError is a failure before the service could serve; its message is
// the full report.
type startupError struct{ err error }

func (e startupError) Error() string { return failureReport(e.err) }
func (e startupError) Unwrap() error { return e.err }

// failureReport formats a start-up failure the way Spring Boot's failure
// analyzer does: one block per invalid setting, naming its key, value,
// origin and what is wrong with it, then every other error as it is.
func failureReport(err error) string {
	var b strings.Builder
	b.WriteString("\n***************************\nAPPLICATION FAILED TO START\n***************************\n\nDescription:\n\n")
	var settingErrs []*config.SettingError
	var engineErrs []*EngineError
	var other []error
	for _, e := range flatten(err) {
		var se *config.SettingError
		var ee *EngineError
		switch {
		case errors.As(e, &ee):
			engineErrs = append(engineErrs, ee)
		case errors.As(e, &se):
			settingErrs = append(settingErrs, se)
		default:
			other = append(other, e)
		}
	}
	// Each block is printed once, however often the same failure was
	// joined into err (a setting refused by two readers for one reason).
	written := map[string]bool{}
	block := func(text string) {
		if !written[text] {
			written[text] = true
			b.WriteString(text)
		}
	}
	for _, se := range settingErrs {
		block(settingBlock("Failed to bind properties under '"+se.Value.Key+"'", se))
	}
	for _, ee := range engineErrs {
		block(settingBlock("Could not use the "+ee.Engine+" that '"+ee.Setting.Value.Key+"' names", &ee.Setting))
	}
	for _, e := range other {
		block(e.Error() + "\n\n")
	}
	b.WriteString("Action:\n\n")
	actions := 0
	action := func(text string) {
		if text != "" && !written[text] {
			written[text] = true
			b.WriteString(text + "\n")
			actions++
		}
	}
	for _, ee := range engineErrs {
		action(ee.Action)
	}
	for _, e := range other {
		action(codeAction(e))
	}
	switch {
	case actions > 0:
	case len(engineErrs) > 0:
		b.WriteString("Check that the engine runs and can be reached at that address, or ")
		b.WriteString("update your application's configuration\n")
	default:
		b.WriteString("Update your application's configuration\n")
	}
	return b.String()
}

// settingBlock is one block of the report: a heading, then the setting,
// its value and origin (a secret masked), and the reason.
func settingBlock(heading string, se *config.SettingError) string {
	value, origin, reason := se.Shown()
	return fmt.Sprintf("%s:\n\n    Property: %s\n    Value: %q\n    Origin: %s\n    Reason: %s\n\n",
		heading, se.Value.Key, value, origin, reason)
}

// flatten unwraps joined errors, however deeply joined, into a list. A
// route table's mistakes stay one error: the report shows them under its
// heading, as dispatch words it.
func flatten(err error) []error {
	if _, table := err.(*dispatch.TableError); table {
		return []error{err}
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// EngineError is an engine that a setting names and that start-up could
// not use: unreachable, refusing the credentials, or holding a migration
// history that disagrees with the binary's migrations. The failure report
// shows the setting as for a bad value: its value (its password masked)
// and where it was set.
type EngineError struct {
	Engine  string // what the setting names, as "PostgreSQL database"
	Setting config.SettingError
	// Action replaces the report's advice (check that the engine runs
	// and can be reached) when the engine was reached and something else
	// must change, as a migration that disagrees with the database.
	Action string
}

func (e *EngineError) Error() string { return e.Setting.Error() }

// codeAction is the report's advice for a failure that no setting
// causes or cures, because it is in the service's code: empty for any
// other.
func codeAction(err error) string {
	if _, ok := errors.AsType[*dispatch.TableError](err); ok {
		return "Fix the route declarations named above in the service's code (the routes its Start gives App.Routes, or a starter's): the route table is checked when the service starts, and no setting changes it"
	}
	if e, ok := errors.AsType[*config.EmbeddedSettingsError](err); ok {
		return "Give the service its settings files at the root of Service.Resources: fs.Sub(resources, \"" + e.Dir + "\") for an embed.FS that holds " + e.Dir + "/ (//go:embed keeps the folder in the files' paths, with " + e.Dir + " and " + e.Dir + "/* alike)"
	}
	return ""
}
