package main

// A Chromium driven over the DevTools protocol, for tests that click
// through a page: Chromium started with --remote-debugging-pipe reads
// commands on its file descriptor 3 and writes answers on 4, each a JSON
// message ended by a NUL byte. No WebSocket, no driver binary.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// browser is one headless Chromium and the page it has open.
type browser struct {
	t       *testing.T
	in      *os.File // Chromium's fd 3: our commands
	answers map[int]chan json.RawMessage
	mu      sync.Mutex
	nextID  int
	session string
}

// newBrowser starts Chromium and opens a blank page; it is stopped when
// the test ends.
func newBrowser(t *testing.T, chromium string) *browser {
	t.Helper()
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-pipe", "--window-size=1280,1600", "about:blank")
	cmd.ExtraFiles = []*os.File{cmdR, outW} // fds 3 and 4
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmdR.Close()
	outW.Close()
	t.Cleanup(func() {
		cmdW.Close()
		cancel()
		_ = cmd.Wait()
		outR.Close()
	})
	b := &browser{t: t, in: cmdW, answers: map[int]chan json.RawMessage{}}
	go b.read(outR)
	var target struct{ TargetID string }
	b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var attached struct{ SessionID string }
	b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	b.session = attached.SessionID
	return b
}

// read hands each answer to the call waiting for its id; events are
// dropped.
func (b *browser) read(out *os.File) {
	r := bufio.NewReader(out)
	for {
		msg, err := r.ReadBytes(0)
		if err != nil {
			return
		}
		var m struct {
			ID int `json:"id"`
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
			continue
		}
		b.mu.Lock()
		ch := b.answers[m.ID]
		b.mu.Unlock()
		if ch != nil {
			ch <- json.RawMessage(msg[:len(msg)-1])
		}
	}
}

// call sends method with params in session ("" for the browser itself)
// and decodes its result into result.
func (b *browser) call(session, method string, params map[string]any, result any) {
	b.t.Helper()
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan json.RawMessage, 1)
	b.answers[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	data, err := json.Marshal(msg)
	if err != nil {
		b.t.Fatal(err)
	}
	if _, err := b.in.Write(append(data, 0)); err != nil {
		b.t.Fatalf("%s: %v", method, err)
	}
	select {
	case raw := <-ch:
		var answer struct {
			Result json.RawMessage
			Error  *struct{ Message string }
		}
		if err := json.Unmarshal(raw, &answer); err != nil {
			b.t.Fatalf("%s: %v", method, err)
		}
		if answer.Error != nil {
			b.t.Fatalf("%s: %s", method, answer.Error.Message)
		}
		if result != nil {
			if err := json.Unmarshal(answer.Result, result); err != nil {
				b.t.Fatalf("%s: %v", method, err)
			}
		}
	case <-time.After(time.Minute):
		b.t.Fatalf("%s: no answer from Chromium within a minute", method)
	}
}

// navigate opens url in the page.
func (b *browser) navigate(url string) {
	b.t.Helper()
	b.call(b.session, "Page.navigate", map[string]any{"url": url}, nil)
}

// run evaluates script, an expression whose value may be a promise, in
// the page and returns its value as a string; a thrown error fails the
// test.
func (b *browser) run(script string) string {
	b.t.Helper()
	var result struct {
		Result struct {
			Value any
		}
		ExceptionDetails *struct {
			Exception struct{ Description string }
		}
	}
	b.call(b.session, "Runtime.evaluate", map[string]any{"expression": script, "awaitPromise": true, "returnByValue": true}, &result)
	if result.ExceptionDetails != nil {
		b.t.Fatalf("the page's script failed: %s", result.ExceptionDetails.Exception.Description)
	}
	return fmt.Sprint(result.Result.Value)
}
