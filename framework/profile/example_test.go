package profile_test

import (
	"fmt"

	"github.com/springport/greeter/framework/profile"
)

// A component declared for "dev & !cloud" exists only where the dev
// profile is active and the cloud one is not. Several expressions are
// OR-ed together. With no profile set, the default profile is active.
func ExampleParse() {
	c, err := profile.Parse("dev & !cloud", "test")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c)
	for _, active := range [][]string{{"dev"}, {"dev", "cloud"}, {"test", "cloud"}, {"default"}} {
		fmt.Println(active, c.Matches(active))
	}

	// A slip is refused, naming the expression, rather than read in some
	// way nobody meant.
	_, err = profile.Parse("dev & cloud | qa")
	fmt.Println(err)
	// Output:
	// dev & !cloud, test
	// [dev] true
	// [dev cloud] false
	// [test cloud] true
	// [default] false
	// malformed profile expression "dev & cloud | qa": '&' and '|' are mixed without parentheses
}

// ParseList reads the list of active profiles as a setting gives it.
func ExampleParseList() {
	active, err := profile.ParseList(" dev, cloud, dev ")
	fmt.Println(active, err)

	_, err = profile.ParseList("dev, -cloud")
	fmt.Println(err)
	// Output:
	// [dev cloud] <nil>
	// invalid profile "-cloud": a profile name must start and end with a letter or digit
}
