package bounded

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A LimitError says that an input went over one of mcplens's limits: a
// line or a body from a server, a config, a line of a file or a file.
type LimitError struct {
	Limit string // its name, as --limit takes it: "line", "body", "file", ...
	Max   int64  // the limit in force
	// What names what went over it: "a line of stdout", "the tools/list
	// answers together", "rec.jsonl".
	What string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s is over the %s %s limit; raise it with --limit %s=SIZE or %s",
		e.What, FormatSize(e.Max), e.Limit, e.Limit, EnvName(e.Limit))
}

// ErrLimit matches every *LimitError with errors.Is.
var ErrLimit = errors.New("over a limit")

// Is reports whether target is ErrLimit.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// EnvName is the environment variable that sets the limit named limit:
// MCPLENS_LIMIT_ERROR_BODY for error-body.
func EnvName(limit string) string {
	return "MCPLENS_LIMIT_" + strings.ToUpper(strings.ReplaceAll(limit, "-", "_"))
}

// FormatSize writes n bytes as --limit reads them back: 4MiB, 64KiB,
// 1500B. It is the one spelling of a size in mcplens's messages.
func FormatSize(n int64) string {
	unit := 0
	for unit < 3 && n >= 1024 && n%1024 == 0 {
		n /= 1024
		unit++
	}
	return strconv.FormatInt(n, 10) + [...]string{"B", "KiB", "MiB", "GiB"}[unit]
}
