// Command greeter is the reference service built on the framework:
// greeting endpoints, an ordered collection of messages (in memory, or in
// PostgreSQL shared by several instances), a search endpoint, and two
// random-number endpoints whose component lifecycle a setting chooses.
//
// This package is greeter alone: its settings (settings.go), its message
// store (stores.go), its components (components.go) and its gauges
// (gauges.go). Its routes are in package api. The lifecycle every service
// shares (settings, loggers, the management endpoints, the ports,
// shutdown, the failure report) is framework/boot's.
package main

import (
	"context"
	"embed"
	"io/fs"
	"time"

	"github.com/springport/greeter/api"
	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/management/openapi"
	"github.com/springport/greeter/framework/starter/otlptracing"
	"github.com/springport/greeter/framework/starter/pkcs12"
	"github.com/springport/greeter/framework/starter/redissession"
	"github.com/springport/greeter/framework/starter/securitybasic"
	"github.com/springport/greeter/framework/starter/securityjwt"
)

func main() { boot.Main(greeter()) }

// greeter describes the service to the framework.
func greeter() boot.Service[settings] {
	return boot.Service[settings]{
		Name:         "greeter",
		Description:  "Greetings, an ordered collection of messages, and random numbers from components with a configurable lifecycle.",
		License:      "MIT", // the repository's LICENSE
		Tags:         tags(),
		Resources:    packagedSettings(),
		Bind:         bindSettings,
		Help:         settingsHelp,
		Loggers:      []string{postgresLogger},
		LoggerGroups: map[string][]string{"sql": {postgresLogger}},
		Classify:     api.Classify,
		// The messages in PostgreSQL when app.datasource.url names it;
		// sessions shared by every instance, in Redis, when
		// app.session.store-type=redis (docs/scale-out.md); a user over
		// HTTP Basic, and bearer tokens, when their settings ask
		// (docs/security.md); spans sent to an OTLP collector when
		// management.opentelemetry.tracing.export.otlp.endpoint names one.
		Starters: []boot.Starter{dataSource, redissession.Starter, securitybasic.Starter, securityjwt.Starter, otlptracing.Starter, pkcs12.Starter},
		Start:    build,
	}
}

// build builds greeter: its message store, its components, its routes.
func build(ctx context.Context, app *boot.App, s settings) error {
	messages := openMessages(app, s)
	app.Gauges(messageGauges(messages.Usage, s.messages.limits))

	registry := &component.Registry{}
	numbers := declareComponents(registry, messages, s.numberScope, time.Now)
	components, err := app.StartComponents(registry)
	if err != nil {
		return err
	}
	valA, err := numbers.valA.Get(ctx, components)
	if err != nil {
		return err
	}
	valB, err := numbers.valB.Get(ctx, components)
	if err != nil {
		return err
	}
	app.Routes(api.Routes(s.greeting, messages, s.messages.paging, valA, valB)...)
	return nil
}

// tags are the OpenAPI document's tags of greeter's routes.
func tags() []openapi.Tag {
	tags := make([]openapi.Tag, len(api.Tags))
	for i, t := range api.Tags {
		tags[i] = openapi.Tag(t)
	}
	return tags
}

// resources are the settings files packaged in the binary: the whole
// folder, so that an application.yml put there is packaged too.
//
//go:embed resources
var resources embed.FS

func packagedSettings() fs.FS {
	sub, err := fs.Sub(resources, "resources")
	if err != nil {
		panic(err) // the folder is embedded above
	}
	return sub
}
