package loader

import (
	"slices"

	"github.com/mcplens/mcplens/model"
)

// Redacted returns a copy of s fit to show or write: env and header values
// masked, the secrets of its arguments, command and URL masked
// (model.RedactArgs, model.RedactURL), and so are those quoted in its
// findings. Labels, paths, env keys and header names stay visible. Views,
// reports and logs print a spec only through it.
func (s ServerSpec) Redacted() ServerSpec {
	r := s
	r.Command = model.RedactArgs([]string{s.Command})[0]
	if s.Args != nil {
		r.Args = model.RedactArgs(s.Args)
	}
	if s.Env != nil {
		r.Env = make([]EnvVar, len(s.Env))
		for i, kv := range s.Env {
			r.Env[i] = EnvVar{Key: kv.Key, Value: model.MaskValue(kv.Value)}
		}
	}
	r.URL = model.RedactURL(s.URL)
	if s.Headers != nil {
		r.Headers = make([]Header, len(s.Headers))
		for i, h := range s.Headers {
			r.Headers[i] = Header{Name: h.Name, Value: model.RedactHeader(h.Name, h.Value)}
		}
	}
	r.Blocked = model.RedactText(s.Blocked)
	if s.Findings != nil {
		r.Findings = make([]string, len(s.Findings))
		for i, f := range s.Findings {
			r.Findings[i] = model.RedactText(f)
		}
	}
	r.IncludeTools = slices.Clone(s.IncludeTools)
	r.ExcludeTools = slices.Clone(s.ExcludeTools)
	r.Unknown = slices.Clone(s.Unknown)
	return r
}
