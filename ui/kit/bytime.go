package kit

import (
	"slices"
	"time"
)

// ByTime returns the lines of every server, servers in order, in time
// order: one stable sort, as merging them pairwise cost servers × lines on
// every refresh.
func ByTime[T any](labels []string, lines map[string][]T, at func(T) time.Time) []T {
	n := 0
	for _, l := range labels {
		n += len(lines[l])
	}
	all := make([]T, 0, n)
	for _, l := range labels {
		all = append(all, lines[l]...)
	}
	slices.SortStableFunc(all, func(a, b T) int { return at(a).Compare(at(b)) })
	return all
}
