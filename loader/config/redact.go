package config

import (
	"slices"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// Redacted returns a copy of s fit to show or write: env and header values
// masked, the secrets of its arguments, command and URL masked
// (model.RedactArgs, model.RedactURL), and so are those quoted in its
// findings; so is any secret s holds (Secrets) wherever else it appears,
// through the same redactor that masks a session's frames. Labels, paths,
// env keys and header names stay visible. Views, reports, lock files and
// logs print a spec only through it.
func (s ServerSpec) Redacted() ServerSpec {
	mask := model.NewRedactor(s.Secrets()...).Values
	r := s
	r.Command = mask(model.RedactArgs([]string{s.Command})[0])
	if s.Args != nil {
		r.Args = model.RedactArgs(s.Args)
		for i, a := range r.Args {
			r.Args[i] = mask(a)
		}
	}
	if s.Env != nil {
		r.Env = make([]EnvVar, len(s.Env))
		for i, kv := range s.Env {
			r.Env[i] = EnvVar{Key: kv.Key, Value: model.MaskValue(kv.Value)}
		}
	}
	r.URL = mask(model.RedactURL(s.URL))
	if s.Headers != nil {
		r.Headers = make([]Header, len(s.Headers))
		for i, h := range s.Headers {
			r.Headers[i] = Header{Name: h.Name, Value: model.RedactHeader(h.Name, h.Value)}
		}
	}
	r.Blocked = mask(model.RedactText(s.Blocked))
	if s.Findings != nil {
		r.Findings = make([]string, len(s.Findings))
		for i, f := range s.Findings {
			r.Findings[i] = mask(model.RedactText(f))
		}
	}
	if o := s.OAuth; o != nil {
		text := func(v string) string { return mask(model.RedactText(v)) }
		r.OAuth = &OAuth{ClientID: text(o.ClientID), ClientSecret: model.MaskValue(o.ClientSecret), CallbackPort: o.CallbackPort}
		for _, sc := range o.Scopes {
			r.OAuth.Scopes = append(r.OAuth.Scopes, text(sc))
		}
	}
	r.IncludeTools = slices.Clone(s.IncludeTools)
	r.ExcludeTools = slices.Clone(s.ExcludeTools)
	r.Unknown = slices.Clone(s.Unknown)
	r.Expanded = nil // the values themselves
	return r
}

// NewRedactor returns the redactor of specs: it masks, wherever they turn
// up in text, the secrets those servers' configs hold. Those are the
// secrets of their commands, arguments and URLs (model.ArgSecrets,
// model.URLSecrets), the value of every header but the protocol's own
// (model.HeaderSecrets: Content-Type is none), and the env values whose name
// or shape says they are secret (model.SecretEnv); an env value such as a
// path or "production" is not masked in prose.
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
	out = append(out, s.Expanded...)
	out = append(out, model.URLSecrets(s.URL)...)
	for _, h := range s.Headers {
		out = append(out, model.HeaderSecrets(h.Name, h.Value)...)
	}
	for _, kv := range s.Env {
		if model.SecretEnv(kv.Key, kv.Value) {
			out = append(out, kv.Value)
		}
		out = append(out, model.URLSecrets(kv.Value)...)
	}
	return slices.DeleteFunc(out, unresolved)
}

// unresolved reports whether v is or holds a variable left as written (an
// unset ${env:VAR}, $VAR, ${input:ID}): a finding names it to say what is
// missing, and it holds no secret.
func unresolved(v string) bool {
	return strings.HasPrefix(v, "$") || strings.Contains(v, "${")
}
