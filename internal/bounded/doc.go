// Package bounded owns reading the files mcplens is given: configs,
// recordings, HAR input, histories and --replay files, snapshots, locks,
// the sides of a diff. Every one goes through Open, so that each is read
// the same way:
//
//   - a regular file only: a device, a FIFO, a socket or a directory is
//     refused with what it is, and opening one never blocks (a FIFO nobody
//     writes to would hold a plain open(2) forever, /dev/zero never ends);
//   - whole (ReadFile), for documents parsed at once, refused unread when
//     over their cap;
//   - or line by line (Lines), never holding more than one line: a line
//     over the line cap is skipped and counted without being held, and
//     the file's total is capped, the error naming the file and the limit.
//
// It also owns how a limit is named in an error (LimitError: "X is over
// the 16MiB line limit; raise it with --limit line=SIZE or
// MCPLENS_LIMIT_LINE") and how a size is spelled (FormatSize), which the
// loader's limits on server input share. It imports only the standard
// library.
//
//	n, err := bounded.Lines{Line: 16 << 20, Total: 1 << 30}.Each(path, func(line []byte) error {
//		return decode(line)
//	})
//	if n.Long > 0 { fmt.Printf("%d line(s) over the line limit skipped\n", n.Long) }
package bounded
