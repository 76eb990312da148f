//go:build unix

package safefile

import (
	"io/fs"
	"syscall"
)

// NoFollow is the flag for os.OpenFile that does not follow a symbolic
// link at the path: on unix the open fails (O_NOFOLLOW).
const NoFollow = syscall.O_NOFOLLOW

// Owner returns the owner of the file fi describes, for Options.Like.
func Owner(fi fs.FileInfo) (uid, gid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}

// soleOwner returns the owner of the file fi describes when it has one
// name only; ok is false for a file with hard links.
func soleOwner(fi fs.FileInfo) (o *owner, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Nlink > 1 {
		return nil, false
	}
	return &owner{int(st.Uid), int(st.Gid)}, true
}
