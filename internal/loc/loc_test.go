package loc

import "testing"

func TestCountSource(t *testing.T) {
	src := "// Package p is a package.\npackage p\n\n/* a\nblock */\nimport \"fmt\" // why\n\nvar s = `one\ntwo`\n\nfunc f() {\n\tfmt.Println(s) /* inline */\n}\n"
	n, err := CountSource([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	// package, import, the two lines of the raw string, func, the call, }.
	if n != 7 {
		t.Errorf("got %d lines of code, want 7", n)
	}
}
