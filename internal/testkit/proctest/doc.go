// Package proctest is what tests of process groups share: the live
// members of a group, read from /proc, and a poll with a deadline. Linux
// only; tests only.
package proctest
