// Package collection measures inmem.Messages, the in-memory message.Store,
// for bench/run: the heap that one million 20-byte messages hold, and the
// cost of reading and replacing a message by index at different sizes. It
// has no code of its own; the measurements are in its tests.
package collection
