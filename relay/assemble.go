package relay

import (
	"bytes"
	"time"
)

// take adds one chunk to the frame s is assembling, recording each frame
// it completes. It runs on the copier's goroutine only.
func (s *Stream) take(ch chunk) {
	if ch.gap {
		// The frame under way lost bytes: leave it out, up to the end of
		// the frame (the next newline; for a whole body, all of it).
		s.reset()
		s.skip = true
		s.event = ""
	}
	if s.framing == Events && !s.began && s.meta != nil {
		s.began = true
		s.record(ch.t, nil, 0, false) // the response's status and headers, as the stream opens
	}
	if ch.skip > 0 {
		s.size += ch.skip // past the cap (Lines and Whole only)
	}
	switch s.framing {
	case Lines:
		if !ch.end {
			s.record(ch.t, ch.data, ch.size, true)
		}
	case Whole:
		s.keep(ch.data)
		if ch.end {
			if !s.skip {
				data, size := s.body()
				s.record(ch.t, data, size, size > 0)
			}
			s.reset()
		}
	default:
		s.split(ch)
	}
}

// split divides ch's bytes into the lines of an event stream, each a
// field of a server-sent event.
func (s *Stream) split(ch chunk) {
	data := ch.data
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			s.keep(data)
			break
		}
		s.keep(data[:i])
		s.line(ch.t)
		data = data[i+1:]
	}
	if ch.end && (s.size > 0 || len(s.evData) > 0) {
		s.line(ch.t)
		s.line(ch.t) // a blank line ends the last event
	}
}

// keep adds p to the line or body under way, up to the frame cap.
func (s *Stream) keep(p []byte) {
	s.size += len(p)
	if room := s.c.frameCap - len(s.buf); room > 0 {
		s.buf = append(s.buf, p[:min(room, len(p))]...)
	}
}

// line completes the line under way of an event stream.
func (s *Stream) line(t time.Time) {
	line, size, skip := s.buf, s.size, s.skip
	s.buf, s.size, s.skip = s.buf[:0], 0, false
	if bytes.HasSuffix(line, []byte("\r")) { // a CRLF line ending
		line, size = line[:len(line)-1], size-1
	}
	s.field(t, line, size, skip)
}

// field takes one line of an event stream: data and event fields add to
// the event, a blank line dispatches it (as text/event-stream defines).
func (s *Stream) field(t time.Time, line []byte, size int, skip bool) {
	if skip {
		s.evSkip = true
		return
	}
	if size == 0 {
		if len(s.evData) > 0 && !s.evSkip {
			s.evData = s.evData[:len(s.evData)-1] // the newline after the last data line
			s.record(t, s.evData, s.evSize-1, true)
		}
		s.evData, s.evSize, s.evSkip, s.event = s.evData[:0], 0, false, ""
		return
	}
	name, value, _ := bytes.Cut(line, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(name) {
	case "data":
		s.evSize += size - (len(line) - len(value)) + 1
		if room := s.c.frameCap - len(s.evData); room > 0 {
			s.evData = append(s.evData, value[:min(room, len(value))]...)
			s.evData = append(s.evData, '\n')
		}
	case "event":
		s.event = string(value)
	}
}

// body returns what was kept of a whole body and its size, inflated when
// the body is gzip (a size past the data's says it was cut).
func (s *Stream) body() ([]byte, int) {
	if s.meta == nil || s.meta.Headers.Get("Content-Encoding") != "gzip" {
		return s.buf, s.size
	}
	data, whole := inflate(s.buf, s.c.frameCap)
	if !whole || s.size > len(s.buf) {
		return data, len(data) + 1
	}
	return data, len(data)
}

// reset forgets the frame under way.
func (s *Stream) reset() {
	s.buf, s.size = s.buf[:0], 0
	s.evData, s.evSize, s.evSkip = s.evData[:0], 0, false
}

// record encodes one frame of s and hands it to the sinks: data is what
// was kept of a frame of size bytes, body whether there is one. The first
// frame of an HTTP stream carries its method or status and headers.
func (s *Stream) record(t time.Time, data []byte, size int, body bool) {
	f := frame{t: t, dir: s.dir, data: data, size: size, body: body, event: s.event}
	if s.meta != nil && !s.metaDone {
		f.meta, s.metaDone = s.meta, true
	}
	s.c.emit(s.c.enc.frame(f))
}
