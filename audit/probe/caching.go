package probe

import (
	"fmt"
	"strconv"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/model"
)

// cacheHints checks the ttlMs and cacheScope of a cacheable result:
// required on a stateless revision, well-formed wherever given. One
// finding per method.
func (a *auditor) cacheHints(method string, m message, mark int) {
	a.fs.probe("caching.hints")
	ttl, scope := jsonx.MemberFold(m.Result, "ttlMs"), jsonx.MemberFold(m.Result, "cacheScope")
	var problem string
	switch {
	case len(ttl) == 0 && len(scope) == 0 && !a.stateless:
		return // an older revision has no cache hints
	case len(ttl) == 0:
		problem = "no ttlMs"
	case !nonNegativeInteger(ttl):
		problem = fmt.Sprintf("ttlMs is %s, not an integer of 0 or more", model.Sanitize(string(ttl)))
	case len(scope) == 0:
		problem = "no cacheScope"
	case string(scope) != `"public"` && string(scope) != `"private"`:
		problem = fmt.Sprintf("cacheScope is %s, not \"public\" or \"private\"", model.Sanitize(string(scope)))
	default:
		return
	}
	a.fs.add("caching.hints", method, fmt.Sprintf("the %s result has %s", method, problem), a.t.since(mark))
}

// nonNegativeInteger reports whether raw is a JSON integer of 0 or more
// (1e3 and 5.0 are integers; 1.5 and -1 are not).
func nonNegativeInteger(raw []byte) bool {
	f, err := strconv.ParseFloat(string(raw), 64)
	return err == nil && f >= 0 && f == float64(int64(f))
}
