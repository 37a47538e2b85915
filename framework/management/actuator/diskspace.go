package actuator

import (
	"context"
	"os"
	"path/filepath"
)

// DiskSpace is the diskSpace health component: DOWN when the file system
// that holds Path has less than Threshold bytes free, as Spring's
// DiskSpaceHealthIndicator (management.health.diskspace.path and
// .threshold), so that an instance about to fail its writes (logs,
// temporary files) is seen before it does.
type DiskSpace struct {
	Path      string // "" is the working directory
	Threshold int64  // bytes
}

// DefaultDiskSpaceThreshold is Spring's default threshold: 10 MB.
const DefaultDiskSpaceThreshold = 10 << 20

func (d DiskSpace) check(context.Context) health {
	path := d.Path
	if path == "" {
		path = "."
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	_, statErr := os.Stat(path)
	// A path that does not exist has no space, as Java's File answers
	// for it: DOWN, with exists false.
	var total, free uint64
	if statErr == nil {
		var err error
		if total, free, err = diskUsage(path); err != nil {
			return health{Status: statusDown, Details: map[string]any{"error": err.Error(), "path": path}}
		}
	}
	status := statusUp
	if free < uint64(d.Threshold) {
		status = statusDown
	}
	return health{Status: status, Details: map[string]any{
		"total": total, "free": free, "threshold": d.Threshold, "path": path, "exists": statErr == nil,
	}}
}
