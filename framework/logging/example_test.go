package logging_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/springport/greeter/framework/logging"
)

// withoutTime drops the time that begins each line, so that the output
// is the same from run to run.
type withoutTime struct{ w io.Writer }

func (w withoutTime) Write(p []byte) (int, error) {
	if _, rest, ok := bytes.Cut(p, []byte(" ")); ok && bytes.HasPrefix(p, []byte("time=")) {
		_, err := w.w.Write(rest)
		return len(p), err
	}
	return w.w.Write(p)
}

// A service's loggers are named in a dotted hierarchy, and each line names
// its logger. The handler that
// writes the lines lets every level through; each logger's level, its own
// or its nearest ancestor's, decides what reaches it, and can be changed
// while the service runs.
func ExampleNewRegistry() {
	base, _ := logging.NewHandler(logging.FormatText, withoutTime{os.Stdout}, logging.HandlerOptions{})
	reg := logging.NewRegistry(base, logging.Info)
	reg.Configure("shop", logging.Warn)         // shop and the loggers below it
	reg.Configure("shop.orders", logging.Debug) // a logger's own level beats its ancestor's

	orders := reg.Logger("shop.orders")
	stock := reg.Logger("shop.stock") // no level of its own: WARN, from shop
	orders.Debug("order received", "id", 7)
	stock.Info("stock checked", "id", 7) // below WARN: not written
	stock.Warn("stock low", "item", "kettle")

	// An operator resets shop.orders (as POST /actuator/loggers/shop.orders
	// with no level does): it inherits WARN again.
	if err := reg.Set("shop.orders", nil); err != nil {
		fmt.Println(err)
	}
	orders.Debug("order received", "id", 8) // not written
	for _, l := range reg.Loggers() {
		fmt.Println(l.Name, l.Configured != nil, l.Effective)
	}
	// Output:
	// level=DEBUG msg="order received" id=7 logger=shop.orders
	// level=WARN msg="stock low" item=kettle logger=shop.stock
	// ROOT true INFO
	// shop true WARN
	// shop.orders false WARN
	// shop.stock false WARN
}

// A group names several loggers that are set together, as Spring's "web"
// group is: logging.level.web=DEBUG, or a level set through the group's
// name at run time.
func ExampleRegistry_Group() {
	reg := logging.NewRegistry(slog.DiscardHandler, logging.Info)
	reg.Group("persistence", "shop.db", "shop.cache")
	reg.Configure("persistence", logging.Debug)

	for _, l := range reg.Loggers() {
		fmt.Println(l.Name, l.Effective)
	}
	g, _ := reg.LookupGroup("persistence")
	fmt.Println(g.Name, *g.Configured, g.Members)
	fmt.Println(reg.Set("nonexistent", nil))
	// Output:
	// ROOT INFO
	// shop INFO
	// shop.cache DEBUG
	// shop.db DEBUG
	// persistence DEBUG [shop.db shop.cache]
	// no logger or group has this name
}
