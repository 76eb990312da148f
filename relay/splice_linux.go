package relay

import (
	"errors"
	"io"
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux the relay passes bytes through the kernel: splice(2) moves
// them from one pipe to the next without copying them into the relay, and
// tee(2) duplicates them, again without a copy, into a pipe the copy is
// read from (a teePipe). Passing 1 MB frames then costs the relay a few
// system calls instead of two copies of each byte; only the copy reads
// the bytes, and only when it keeps up.

// spliceMax is the most one splice or tee is asked to move.
const spliceMax = pipeSize

// drainSpliced is drain through the kernel; handled is false, with
// nothing passed, when dst is not a file.
func drainSpliced(dst io.Writer, src *os.File, copy *Stream, exited *atomic.Bool) (handled bool) {
	df, ok := dst.(*os.File)
	if !ok {
		return false
	}
	dfd, sfd, ok := rawFD(df), rawFD(src), true
	if dfd < 0 || sfd < 0 {
		return false
	}
	src.SetReadDeadline(time.Time{}) // a file's own, not one a caller left
	rc, _ := src.SyscallConn()
	t := newTeePipe(copy)
	defer t.close(copy)
	buf := []byte(nil) // for a dst splice refuses
	for ok {
		var n int
		var full bool
		var terr error
		if err := rc.Read(func(fd uintptr) bool {
			n, full, terr = t.tee(int(fd))
			return terr != unix.EAGAIN
		}); err != nil || terr != nil || n == 0 {
			return true // the server's end closed, or it exited and stayed idle
		}
		if full {
			ok = t.passUntee(dfd, sfd, n, &buf)
		} else {
			ok = pass(dfd, sfd, n, &buf)
		}
		if !ok {
			src.Close()
		}
		if exited.Load() {
			src.SetReadDeadline(time.Now().Add(pipeGrace))
		}
	}
	return true
}

// feedSpliced is feed through the kernel, by way of a pipe of the relay's
// own (the client's stdin may be a socket, which cannot be teed); handled
// is false, with nothing passed, when src is not a file that splices.
func feedSpliced(dst *os.File, src io.Reader, copy *Stream) (handled bool) {
	sf, ok := src.(*os.File)
	if !ok {
		return false
	}
	sfd, dfd := rawFD(sf), rawFD(dst)
	var mid [2]int
	if sfd < 0 || dfd < 0 || unix.Pipe2(mid[:], unix.O_CLOEXEC) != nil {
		return false
	}
	defer unix.Close(mid[0])
	defer unix.Close(mid[1])
	unix.FcntlInt(uintptr(mid[0]), unix.F_SETPIPE_SZ, pipeSize)
	buf := []byte(nil)
	n, err := spliceWait(sfd, mid[1], spliceMax, unix.POLLIN)
	if err == unix.EINVAL {
		return false // stdin that does not splice (a terminal): read and write it
	}
	t := newTeePipe(copy)
	defer t.close(copy)
	for err == nil && n > 0 {
		m := t.teeSome(mid[0], n)
		if !pass(dfd, mid[0], m, &buf) || !t.passUntee(dfd, mid[0], n-m, &buf) {
			break
		}
		n, err = spliceWait(sfd, mid[1], spliceMax, unix.POLLIN)
	}
	dst.Close()
	return true
}

// pass moves n bytes, which are waiting in the pipe sfd, to dfd: by splice,
// or when dfd refuses splice (a terminal, a file open to append), by read
// and write through *buf. It reports whether dfd took them all.
func pass(dfd, sfd, n int, buf *[]byte) bool {
	for n > 0 {
		m, err := spliceWait(sfd, dfd, n, unix.POLLOUT)
		if err == unix.EINVAL {
			return passCopy(dfd, sfd, n, buf, nil)
		}
		if err != nil || m == 0 {
			return false
		}
		n -= m
	}
	return true
}

// passUntee moves n bytes the copy's pipe had no room for from the pipe
// sfd to dfd: a few (at most holdChunk) by read and write, held for the
// copy; more by splice, lost to the copy, so that a copy that falls behind
// on large frames never costs the passthrough a copy of them.
func (t *teePipe) passUntee(dfd, sfd, n int, buf *[]byte) bool {
	switch {
	case n == 0:
		return true
	case t == nil:
		return pass(dfd, sfd, n, buf)
	case n <= holdChunk:
		return passCopy(dfd, sfd, n, buf, t.hold)
	}
	t.lose()
	return pass(dfd, sfd, n, buf)
}

// passCopy moves n bytes from the pipe sfd to dfd through *buf, handing
// each piece to kept when it is not nil.
func passCopy(dfd, sfd, n int, buf *[]byte, kept func([]byte)) bool {
	if *buf == nil {
		*buf = make([]byte, bufSize)
	}
	for n > 0 {
		m, err := unix.Read(sfd, (*buf)[:min(n, len(*buf))])
		if err == unix.EINTR || err == unix.EAGAIN && waitFD(sfd, unix.POLLIN) {
			continue
		}
		if err != nil || m <= 0 {
			return false
		}
		if kept != nil {
			kept((*buf)[:m])
		}
		for p := (*buf)[:m]; len(p) > 0; {
			w, err := unix.Write(dfd, p)
			if err == unix.EINTR || err == unix.EAGAIN && waitFD(dfd, unix.POLLOUT) {
				continue
			}
			if err != nil {
				return false
			}
			p = p[w:]
		}
		n -= m
	}
	return true
}

// spliceWait splices up to n bytes from sfd to dfd, waiting (poll) for the
// side that would block: events is POLLIN to wait on sfd, POLLOUT on dfd.
func spliceWait(sfd, dfd, n int, events int16) (int, error) {
	fd := sfd
	if events == unix.POLLOUT {
		fd = dfd
	}
	for {
		m, err := unix.Splice(sfd, nil, dfd, nil, n, unix.SPLICE_F_MOVE)
		switch {
		case err == unix.EINTR:
		case err == unix.EAGAIN:
			if !waitFD(fd, events) {
				return 0, err
			}
		default:
			return int(m), err
		}
	}
}

// waitFD waits until fd is ready for events, or hung up; it reports
// whether to try again.
func waitFD(fd int, events int16) bool {
	p := []unix.PollFd{{Fd: int32(fd), Events: events}}
	for {
		_, err := unix.Poll(p, -1)
		if err != unix.EINTR {
			return err == nil && p[0].Revents&unix.POLLNVAL == 0
		}
	}
}

// rawFD returns f's descriptor without making it blocking (as Fd does),
// or -1.
func rawFD(f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	if rc.Control(func(u uintptr) { fd = int(u) }) != nil {
		return -1
	}
	return fd
}

// available returns how many bytes wait in the pipe fd: 0 and EAGAIN when
// none, 0 and no error at its end (every writer gone).
func available(fd int) (int, error) {
	n, err := unix.IoctlGetInt(fd, unix.TIOCINQ)
	if err != nil || n > 0 {
		return n, err
	}
	p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	if _, err := unix.Poll(p, 0); err != nil && !errors.Is(err, unix.EINTR) {
		return 0, err
	}
	if p[0].Revents&unix.POLLHUP != 0 {
		if n, err := unix.IoctlGetInt(fd, unix.TIOCINQ); err != nil || n > 0 {
			return n, err // written just before the writer left
		}
		return 0, nil
	}
	return 0, unix.EAGAIN
}
