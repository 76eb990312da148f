package capture

import "github.com/mcplens/mcplens/loader"

// keepFrame keeps the frame l carries in its server's frame log, when d
// keeps frames: the client's frames as a session's own (Out), the
// server's as answers (In), text that is not JSON from the server as junk.
// stderr is not a frame of the wire.
func (d *Decoder) keepFrame(server string, l *line) {
	if d.frames == nil || l.Dir != "c2s" && l.Dir != "s2c" {
		return
	}
	f := loader.Frame{At: l.T, Dir: loader.In, Size: l.Cut}
	if l.Dir == "c2s" {
		f.Dir = loader.Out
	}
	switch {
	case l.Frame != nil:
		f.Bytes = l.Frame
	case l.Text != nil:
		f.Bytes, f.Junk = []byte(*l.Text), f.Dir == loader.In
	default:
		return
	}
	log, ok := d.frames[server]
	if !ok {
		log = loader.NewFrameLog(server)
		d.frames[server] = log
	}
	log.Add(f)
}

// FrameLog returns the frames recorded of server, in the order recorded,
// bounded as a session's are (loader.MaxFrames); nil when c was not read
// from files (Read) or holds no frame of server.
func (c *Capture) FrameLog(server string) *loader.FrameLog {
	return c.frames[server]
}
