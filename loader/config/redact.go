package config

import (
	"slices"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// Redacted returns a copy of s fit to show or write: env and header values
// masked, the secrets of its arguments, command and URL masked
// (model.RedactArgs, model.RedactURL), and so are those quoted in its
// findings; so is any env or header value of s wherever else it appears
// (model.MaskKnown). Labels, paths, env keys and header names stay
// visible. Views, reports, lock files and logs print a spec only through
// it.
func (s ServerSpec) Redacted() ServerSpec {
	known := s.knownSecrets()
	mask := func(v string) string { return model.MaskKnown(v, known) }
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
	r.Blocked = mask(model.MaskTokens(model.RedactText(s.Blocked)))
	if s.Findings != nil {
		r.Findings = make([]string, len(s.Findings))
		for i, f := range s.Findings {
			r.Findings[i] = mask(model.MaskTokens(model.RedactText(f)))
		}
	}
	if o := s.OAuth; o != nil {
		text := func(v string) string { return mask(model.MaskTokens(model.RedactText(v))) }
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

// knownSecrets are the values s holds that are secret wherever they appear:
// its env values and header values, and the credential of a header given
// as "Bearer X". A value left as a variable reference (an unset
// ${env:VAR}, $VAR, ${input:ID}) is not one: a finding names it to say
// what is missing.
func (s ServerSpec) knownSecrets() []string {
	var known []string
	add := func(v string) {
		if !strings.HasPrefix(v, "$") {
			known = append(known, v)
		}
	}
	for _, kv := range s.Env {
		add(kv.Value)
	}
	for _, v := range s.Expanded {
		add(v)
	}
	for _, h := range s.Headers {
		add(h.Value)
		if _, cred, ok := strings.Cut(h.Value, " "); ok {
			add(strings.TrimSpace(cred))
		}
	}
	return known
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
	out = append(out, s.Expanded...)
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
