package loader

import (
	"time"

	"github.com/mcplens/mcplens/mcpsession"
)

// A frameLog is a server's mcpsession.FrameLog as an observer of its
// connection's frames: each frame is kept as it crossed, stamped on arrival.
type frameLog struct{ *mcpsession.FrameLog }

func newFrameLog(server string) frameLog { return frameLog{mcpsession.NewFrameLog(server)} }

// frame keeps f, holding at most MaxFrameBytes of it.
func (l frameLog) frame(f *frameInfo) {
	l.Add(mcpsession.Frame{
		Dir:     f.dir,
		At:      time.Now(),
		Bytes:   f.line,
		Size:    f.size,
		Junk:    f.junk,
		Problem: f.problem,
	})
}
