package kit

import "github.com/mcplens/mcplens/model"

// Whatever the interface shows of a server or a call goes through one of
// these: the config's secrets are masked (config.NewRedactor) before the
// text is sanitized, so that no secret the config holds reaches the
// screen, in a message, a frame or a description.

// Text is a message as the screen shows it (an error, a note, stderr):
// the config's secrets and credential syntax masked, then sanitized.
func Text(r *model.Redactor, s string) string { return model.Sanitize(r.Text(s)) }

// Quote is server text shown as it came (a frame, a description, a
// result): the config's secrets masked, then sanitized.
func Quote(r *model.Redactor, s string) string { return model.Sanitize(r.Values(s)) }

// Cut returns b cut to about n bytes for a line that shows at most n, with
// room for the longest secret, so that masking sees every secret that
// starts within the line whole. A frame or a description can be
// megabytes: only what is cut is copied.
func Cut[T ~string | ~[]byte](r *model.Redactor, b T, n int) string {
	if n += r.Longest(); len(b) > n {
		b = b[:n]
	}
	return string(b)
}
