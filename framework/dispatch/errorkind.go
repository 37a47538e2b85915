package dispatch

// A failure's kind is what a dashboard counts server errors by: Spring's
// exception tag holds the class of the exception a request ended with.
// A handler's error that is an *Error carries its Kind itself; one that
// Options.Classify gave an *Error with a Kind is reported to the
// observers (Observation.Err) as a classified error, which unwraps to
// both, so that errors.As finds the Kind and the handler's error alike.

// classified is a handler's error and the *Error Classify gave it.
type classified struct {
	as  *Error
	err error
}

func (c *classified) Error() string   { return c.err.Error() }
func (c *classified) Unwrap() []error { return []error{c.as, c.err} }
