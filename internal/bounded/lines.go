package bounded

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// Lines reads a file line by line within two caps: Line bounds one line
// (its newline aside), Total the whole file. Zero takes the default
// (DefaultLine, DefaultTotal); TotalLimit names the total's limit for its
// error ("file" unless set).
type Lines struct {
	Line, Total int64
	TotalLimit  string
}

// The defaults of Lines: the line limit of a server's stdout, and a file
// limit far above any recording a session writes, as a file is streamed
// and its size costs time, not memory.
const (
	DefaultLine  int64 = 16 << 20
	DefaultTotal int64 = 1 << 30
)

// A Count is what Each read: the lines handed on, and the lines over the
// line cap, skipped unread.
type Count struct {
	Lines int
	Long  int
	// FirstLong is the number of the first line skipped (from 1).
	FirstLong int
	path      string
	max       int64
}

// Skipped is the error that says which lines were skipped for their
// length, or nil when none was.
func (c Count) Skipped() error {
	if c.Long == 0 {
		return nil
	}
	what := "line " + strconv.Itoa(c.FirstLong) + " of " + c.path
	if c.Long > 1 {
		what += " (and " + strconv.Itoa(c.Long-1) + " more, all skipped)"
	} else {
		what += " (skipped)"
	}
	return &LimitError{Limit: "line", Max: c.max, What: what}
}

// Each calls f with each line of the regular file at path (Open), without
// its newline (a trailing \r goes too), blank lines left out. The line is
// f's only during the call: Each reuses its bytes. A line over the line
// cap is read no further than the cap, skipped and counted; f never sees
// it. A file over the total cap ends Each with a *LimitError naming the
// file, after f saw the lines before it. An error f returns ends Each
// with that error.
func (l Lines) Each(path string, f func(line []byte) error) (Count, error) {
	max, total, limit := l.Line, l.Total, l.TotalLimit
	if max <= 0 {
		max = DefaultLine
	}
	if total <= 0 {
		total = DefaultTotal
	}
	if limit == "" {
		limit = "file"
	}
	n := Count{path: path, max: max}
	file, _, err := Open(path)
	if err != nil {
		return n, err
	}
	defer file.Close()
	cr := &capped{r: file, left: total}
	r := bufio.NewReaderSize(cr, 64<<10)
	var held []byte // the start of a line longer than r's buffer
	long := false
	for number := 1; ; number++ {
		var part []byte
		for {
			part, err = r.ReadSlice('\n')
			if err != bufio.ErrBufferFull {
				break
			}
			if !long && int64(len(held)+len(part)) > max {
				long, held = true, held[:0]
			}
			if !long {
				held = append(held, part...)
			}
		}
		switch {
		case errors.Is(err, errOver):
			return n, &LimitError{Limit: limit, Max: total, What: path}
		case err != nil && err != io.EOF:
			return n, err
		}
		line := trimNewline(part)
		switch {
		case long || int64(len(held)+len(line)) > max:
			n.Long++
			if n.FirstLong == 0 {
				n.FirstLong = number
			}
			line = nil
		case len(held) > 0:
			held = append(held, line...)
			line = held
		}
		if len(line) > 0 {
			n.Lines++
			if ferr := f(line); ferr != nil {
				return n, ferr
			}
		}
		if cap(held) > 1<<20 {
			held = nil // a long line's buffer is not kept for the rest
		}
		held, long = held[:0], false
		if err == io.EOF {
			return n, nil
		}
	}
}

func trimNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return b
}

// errOver is what capped says past its cap when there is more to read.
var errOver = errors.New("over the cap")

// capped reads at most left bytes of r; then errOver if r has more, else
// r's end.
type capped struct {
	r    io.Reader
	left int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		for {
			n, err := c.r.Read(one[:])
			if n > 0 {
				return 0, errOver
			}
			if err != nil {
				return 0, err
			}
		}
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
