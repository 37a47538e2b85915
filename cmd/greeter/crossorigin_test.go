package main

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestCrossOriginMessages: a page on another origin cannot post a
// message (its browser says where it comes from, in Sec-Fetch-Site or
// in Origin); curl and a same-origin page can; with app.web.cors a page
// of an allowed origin can too, and gets the CORS headers.
func TestCrossOriginMessages(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--app.web.cors.allowed-origins=https://app.example", "--app.web.cors.allowed-methods=GET,POST",
		"--app.web.cors.allowed-headers=Content-Type"}, nil)
	post := func(headers ...string) boottest.Response {
		return boottest.Send(t, nil, "POST", s.base+"/api/messages", `{"text":"hi"}`, append([]string{"Content-Type: application/json"}, headers...)...)
	}
	for _, headers := range [][]string{
		{"Sec-Fetch-Site: cross-site", "Origin: https://evil.example"},
		{"Origin: https://evil.example"},
	} {
		if r := post(headers...); r.Status != 403 || !strings.Contains(r.Header.Get("Content-Type"), "problem+json") {
			t.Errorf("cross-site POST %q: %d %s", headers, r.Status, r.Body)
		}
	}
	if r := post(); r.Status != 201 {
		t.Errorf("POST without Origin (curl): %d %s", r.Status, r.Body)
	}
	if r := post("Origin: "+s.base, "Sec-Fetch-Site: same-origin"); r.Status != 201 {
		t.Errorf("same-origin POST: %d %s", r.Status, r.Body)
	}
	r := boottest.Send(t, nil, "OPTIONS", s.base+"/api/messages", "", "Origin: https://app.example",
		"Access-Control-Request-Method: POST", "Access-Control-Request-Headers: content-type")
	if r.Status != 200 || r.Header.Get("Access-Control-Allow-Origin") != "https://app.example" || r.Header.Get("Access-Control-Allow-Methods") != "GET,POST" {
		t.Errorf("preflight from the allowed origin: %d %v", r.Status, r.Header)
	}
	if r := post("Origin: https://app.example", "Sec-Fetch-Site: cross-site"); r.Status != 201 || r.Header.Get("Access-Control-Allow-Origin") != "https://app.example" {
		t.Errorf("POST from the allowed origin: %d %v %s", r.Status, r.Header, r.Body)
	}
}
