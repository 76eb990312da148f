package loader

import (
	"bytes"
	"slices"
	"time"

	"github.com/mcplens/mcplens/model"
)

// relistPace bounds how long a relisting waits after the last one: as long
// as that one took, past relistDelay, so that a server flooding
// tools/list_changed with large lists has mcplens listing at most about
// half the time (conn.relistLoop).
const relistPace = time.Second

// sameTools reports whether a and b are the same rows, byte for byte, kept
// or withheld alike.
func sameTools(a, b []model.Tool) bool {
	return slices.EqualFunc(a, b, func(x, y model.Tool) bool {
		return x.FilteredBy == y.FilteredBy && bytes.Equal(x.Raw, y.Raw)
	})
}
