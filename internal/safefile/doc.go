// Package safefile writes the files mcplens writes (reports, lock files)
// so that a path planted in a cloned repository cannot redirect them: the
// data goes to a temporary file in the same directory, which is renamed
// over the path. A rename replaces a symbolic link rather than following
// it, and a reader never sees half a file. Write also refuses to replace a
// file that mcplens did not write, unless told to:
//
//	err := safefile.Write("mcplens.lock", data, safefile.Options{Mine: isLock, Perm: 0o644})
//	var refused *safefile.RefusedError
//	if errors.As(err, &refused) { ... ask, or say --force }
//
// Rewrite replaces the content of a file a user owns (a client's config),
// keeping its owner, group, mode and hard links, and refusing a symbolic
// link and a file changed since it was read. Options.Like gives a new
// file the owner of another (a backup of that config).
//
// On Windows a mode sets only the read-only attribute and who may read a
// file is the ACL it inherits from its folder (mcplens sets none); a link
// is opened as itself (NoFollow) and refused; Owner reports none and
// Rewrite writes in place (docs/platforms.md).
//
// It imports only the standard library and knows nothing of what it writes.
package safefile
