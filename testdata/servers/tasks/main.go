// Command tasks is the stdio test server of multi-round requests and
// tasks (internal/testkit/taskserver).
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/mcplens/mcplens/internal/testkit/taskserver"
)

func main() {
	if err := taskserver.New().ServeStdio(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
