package loader

import (
	"slices"
	"strings"

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

// NewRedactor returns the redactor of specs: it masks, wherever they turn
// up in text, the secrets those servers' configs hold. Those are the
// secrets of their commands, arguments and URLs (model.ArgSecrets,
// model.URLSecrets), every header value, and the env values whose name
// says they are secret or that look like a credential (model.LooksSecret);
// an env value such as a path or "production" is not masked in prose.
// Everything mcplens shows or writes about a session goes through it.
func NewRedactor(specs []ServerSpec) *model.Redactor {
	var secrets []string
	for _, s := range specs {
		secrets = append(secrets, s.Secrets()...)
	}
	return model.NewRedactor(secrets...)
}

// Secrets returns the secret values s holds, as NewRedactor finds them.
func (s ServerSpec) Secrets() []string {
	out := model.ArgSecrets(append([]string{s.Command}, s.Args...))
	out = append(out, model.URLSecrets(s.URL)...)
	for _, h := range s.Headers {
		out = append(out, h.Value)
		if scheme, cred, ok := strings.Cut(h.Value, " "); ok && !strings.ContainsAny(scheme, "=:") {
			out = append(out, strings.TrimSpace(cred))
		}
	}
	for _, kv := range s.Env {
		if model.SecretName(kv.Key) || model.LooksSecret(kv.Value) {
			out = append(out, kv.Value)
		}
		out = append(out, model.URLSecrets(kv.Value)...)
	}
	return out
}
