package relay

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeSize is the capacity asked for the pipes to the server: with the
// default 64 KiB a large frame takes many more wakeups of the relay, the
// server and the client than a direct pipe does.
const pipeSize = 1 << 20

// widen asks the kernel for pipeSize on p; a refusal (a lower
// fs.pipe-max-size) leaves the pipe as it was.
func widen(p *os.File) { setPipeSize(p, pipeSize) }

// setPipeSize asks the kernel for size bytes of capacity on p.
func setPipeSize(p *os.File, size int) {
	if sc, err := p.SyscallConn(); err == nil {
		sc.Control(func(fd uintptr) { _, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, size) })
	}
}
