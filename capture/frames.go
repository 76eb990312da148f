package capture

import (
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/recording"
)

// keepFrame keeps the frame l carries in its server's frame log, when d
// keeps frames: the client's frames as a session's own (Out), the
// server's as answers (In), text that is not JSON from the server as junk.
// stderr is not a frame of the wire.
func (d *Decoder) keepFrame(server string, l *recording.Line) {
	if d.frames == nil || l.Dir != recording.ClientToServer && l.Dir != recording.ServerToClient {
		return
	}
	f := mcpsession.Frame{At: l.T, Dir: mcpsession.In, Size: l.Cut}
	if l.Dir == recording.ClientToServer {
		f.Dir = mcpsession.Out
	}
	switch {
	case l.Frame != nil:
		f.Bytes = l.Frame
	case l.Text != nil:
		f.Bytes, f.Junk = []byte(*l.Text), f.Dir == mcpsession.In
	default:
		return
	}
	log, ok := d.frames[server]
	if !ok {
		log = mcpsession.NewFrameLog(server)
		d.frames[server] = log
	}
	log.Add(f)
}

// FrameLog returns the frames recorded of server, in the order recorded,
// bounded as a session's are (mcpsession.MaxFrames); nil when c was not read
// from files (Read) or holds no frame of server.
func (c *Capture) FrameLog(server string) *mcpsession.FrameLog {
	return c.frames[server]
}
