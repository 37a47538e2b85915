// Package inmem implements the service's ports in the process's memory:
// the message store and the HTTP session store. What it holds is lost when
// the process ends, and is not shared with other processes.
package inmem
