package main

import (
	"os"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/config"
)

// TestRenamesDocumented: the section "Spring Boot 4 and 3.5 names" of
// docs/configuration.md lists every rename that the packages greeter
// links declare (config.Renamed), each as a row naming the old key, the
// new key and the file of Spring Boot's that says so, so that a rename
// cannot be added without its row.
func TestRenamesDocumented(t *testing.T) {
	doc, err := os.ReadFile(referenceFile)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Spring Boot 4 and 3.5 names\n")
	if !ok {
		t.Fatal("docs/configuration.md has no section \"Spring Boot 4 and 3.5 names\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	renames := config.Renames()
	if len(renames) == 0 {
		t.Fatal("no renames declared")
	}
	rows := strings.Split(section, "\n")
	for _, r := range renames {
		old, renamed := docKey(r.Old), docKey(r.New)
		found := false
		for _, row := range rows {
			if strings.HasPrefix(row, "| ") && strings.Contains(row, old) && strings.Contains(row, renamed) {
				found = true
				if !strings.Contains(row, r.Source) && !strings.Contains(row, "| the same |") {
					t.Errorf("the row of %s does not name %s", r.Old, r.Source)
				}
			}
		}
		if !found {
			t.Errorf("no row lists %s -> %s", old, renamed)
		}
	}
}

// docKey is a key as the section writes it: in backquotes, a family's
// with <name>, an app. key by its spring. name.
func docKey(key string) string {
	if strings.HasSuffix(key, ".") {
		key += "<name>"
	}
	if twin, ok := config.SpringTwin(key); ok {
		key = twin
	}
	return "`" + key + "`"
}
