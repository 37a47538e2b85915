package config

import "testing"

func TestDataSize(t *testing.T) {
	t.Parallel()
	checkParser(t, "DataSize", DataSize, []parserCase[ByteSize]{
		{"1048576", 1 << 20},
		{"10B", 10},
		{"10b", 10},
		{"512KB", 512 << 10},
		{"512kb", 512 << 10},
		{"512Kb", 512 << 10},
		{"1MB", 1 << 20},
		{"1mb", 1 << 20},
		{" 2 GB ", 2 << 30},
		{"3TB", 3 << 40},
		{"3tb", 3 << 40},
		{"+5MB", 5 << 20},
		{"0", 0},
		{"0KB", 0},
		{"-1", 0},
		{"-1MB", 0},
		{"1.5MB", 0},
		{"MB", 0},
		{"1K", 0},
		{"1PB", 0},
		{"1 M B", 1 << 20}, // Spring drops every space
		{"9999999999TB", 0},
		{"", 0},
	}, "B, KB, MB, GB or TB")
}

func TestByteSizeString(t *testing.T) {
	t.Parallel()
	for size, want := range map[ByteSize]string{1 << 20: "1MB", 1536: "1536B", 3 << 10: "3KB", 1 << 40: "1TB", 7: "7B", 0: "0B"} {
		if got := size.String(); got != want {
			t.Errorf("ByteSize(%d) = %q, want %q", size, got, want)
		}
	}
}
