package main

import (
	"context"
	"errors"
	"testing"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/management/metrics"
)

func TestMessageGauges(t *testing.T) {
	var err error
	usage := func(context.Context) (message.Usage, error) { return message.Usage{Count: 3, Bytes: 1234}, err }
	read := messageGauges(usage, message.Limits{MaxCount: 1000, MaxBytes: 1 << 20})

	got := gaugeValues(read())
	want := map[string]float64{"messages_stored": 3, "messages_stored_max": 1000, "messages_text_bytes": 1234, "messages_text_bytes_max": 1 << 20}
	for name, v := range want {
		if got[name] != v {
			t.Errorf("%s = %v, want %v (all: %v)", name, got[name], v, got)
		}
	}

	err = errors.New("the store is down")
	got = gaugeValues(read())
	if _, ok := got["messages_stored"]; ok {
		t.Error("a store that does not answer still shows a usage")
	}
	if got["messages_stored_max"] != 1000 {
		t.Error("a store that does not answer hides its limits")
	}
}

func gaugeValues(gauges []metrics.Gauge) map[string]float64 {
	values := map[string]float64{}
	for _, g := range gauges {
		values[g.Name] = g.Value
	}
	return values
}
