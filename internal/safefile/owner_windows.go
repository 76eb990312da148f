package safefile

import (
	"io/fs"
	"syscall"
)

// NoFollow is the flag for os.OpenFile that does not follow a symbolic
// link (or junction) at the path: on Windows the link itself is opened
// (FILE_FLAG_OPEN_REPARSE_POINT), which is not the file an Lstat of a
// regular file described, so that every caller's os.SameFile check
// refuses it.
const NoFollow = syscall.FILE_FLAG_OPEN_REPARSE_POINT

// Owner reports no owner on Windows: a file's owner is a SID in its
// security descriptor, which a new file gets from the process and the
// folder, not from Options.Like.
func Owner(fs.FileInfo) (uid, gid int, ok bool) { return 0, 0, false }

// soleOwner reports none: Rewrite writes in place on Windows, which
// keeps the file's ACL and hard links.
func soleOwner(fs.FileInfo) (*owner, bool) { return nil, false }
