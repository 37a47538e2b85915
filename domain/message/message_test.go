package message

import "testing"

func TestIndexError(t *testing.T) {
	tests := []struct {
		err  IndexError
		want string
	}{
		{IndexError{Index: 0, Len: 0}, "index 0 is out of range: the collection is empty"},
		{IndexError{Index: -1, Len: 0}, "index -1 is out of range: the collection is empty"},
		{IndexError{Index: 1, Len: 1}, "index 1 is out of range: valid indexes are 0 to 0"},
		{IndexError{Index: 1 << 40, Len: 3}, "index 1099511627776 is out of range: valid indexes are 0 to 2"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%+v:\ngot  %q\nwant %q", tt.err, got, tt.want)
		}
	}
}
