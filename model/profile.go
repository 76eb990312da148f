package model

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// A Severity is how bad something mcplens found is: one provider's check
// of one name, or a Finding. It is the one word for the idea; a report
// grades its findings on its own scale (report.Severity), which adds info
// and spells Warn and Fail "warning" and "error".
type Severity int

const (
	// Pass: nothing to report.
	Pass Severity = iota
	// Warn: accepted today, or only a SHOULD broken.
	Warn
	// Fail: the provider rejects the name, or the finding is serious.
	Fail
)

// String returns the severity as reports spell it.
func (s Severity) String() string {
	switch s {
	case Pass:
		return "pass"
	case Warn:
		return "warn"
	case Fail:
		return "fail"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// A Check is the verdict of one profile on one name.
type Check struct {
	Profile  string
	Severity Severity
	// Message is empty on Pass. Otherwise it names the server label, the wire
	// name, the registered name, the rule broken, the length and, where one
	// exists, the remedy.
	Message string
}

// A Profile is one provider's rule for function names.
type Profile struct {
	Name string
	// Rule is the rule in human text.
	Rule string
	// Source says how well the rule is known.
	Source string

	pattern string          // the rule as a regular expression, for messages
	first   func(rune) bool // the first character, when it differs from rest
	rest    func(rune) bool // every character
	charset string          // rest, for messages
	max     int             // longer fails
	// warnAbove, when set, is the documented length: longer only warns,
	// up to max.
	warnAbove int
	// extra is a stricter rule that only warns: it returns the problem, or
	// "". extraRule names it in messages.
	extra     func(name string) string
	extraRule string
}

// Profiles returns every provider profile.
func Profiles() []Profile {
	return []Profile{
		{
			Name:    "openai",
			Rule:    "^[a-zA-Z0-9_-]{1,64}$",
			Source:  "SDK docstring + API errors",
			pattern: `^[a-zA-Z0-9_-]{1,64}$`,
			rest:    isOpenAIChar,
			charset: "[a-zA-Z0-9_-]",
			max:     64,
		},
		{
			Name: "anthropic",
			Rule: "^[a-zA-Z0-9_-]{1,64}$ documented; up to 128 accepted (observed): " +
				"warn 65..128, fail beyond",
			Source:    "docs + observed errors",
			pattern:   `^[a-zA-Z0-9_-]{1,64}$`,
			rest:      isOpenAIChar,
			charset:   "[a-zA-Z0-9_-]",
			max:       128,
			warnAbove: 64,
		},
		{
			Name:    "gemini",
			Rule:    "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$",
			Source:  "API error text",
			first:   func(r rune) bool { return r == '_' || isASCIILetter(r) },
			pattern: `^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`,
			rest:    isGeminiChar,
			charset: "[a-zA-Z0-9_.:-]",
			max:     64,
		},
		{
			Name:      "bedrock",
			Rule:      "^[a-zA-Z0-9_-]{1,64}$ (Bedrock Agents: ^[a-zA-Z][a-zA-Z0-9_]{0,63}$, a warning)",
			Source:    "AWS API reference",
			pattern:   `^[a-zA-Z0-9_-]{1,64}$`,
			rest:      isOpenAIChar,
			charset:   "[a-zA-Z0-9_-]",
			max:       64,
			extra:     bedrockAgents,
			extraRule: "Bedrock Agents ^[a-zA-Z][a-zA-Z0-9_]{0,63}$",
		},
		{
			Name:    "portable",
			Rule:    "^[A-Za-z][A-Za-z0-9_-]{0,62}$: passes every profile above",
			Source:  "derived",
			first:   isASCIILetter[rune],
			pattern: `^[A-Za-z][A-Za-z0-9_-]{0,62}$`,
			rest:    isOpenAIChar,
			charset: "[A-Za-z0-9_-]",
			max:     63,
		},
	}
}

// DefaultProfiles returns the profiles checked when none are chosen.
func DefaultProfiles() []Profile {
	var ps []Profile
	for _, p := range Profiles() {
		switch p.Name {
		case "openai", "anthropic", "gemini":
			ps = append(ps, p)
		}
	}
	return ps
}

// ProfileNamed returns the profile with the given name.
func ProfileNamed(name string) (Profile, bool) {
	for _, p := range Profiles() {
		if p.Name == name {
			return p, true
		}
	}
	return Profile{}, false
}

// Check validates the outcome's registered name against the profile.
func (p Profile) Check(o Outcome) Check {
	c := Check{Profile: p.Name}
	if p.rest == nil {
		c.Severity = Warn
		c.Message = "profile " + p.Name + " has no rule"
		return c
	}
	n := utf8.RuneCountInString(o.Name)
	var problems []string
	bad, badChar := firstOutside(o.Name, p.rest)
	switch {
	case o.Name == "":
		problems = append(problems, "is empty")
	case p.first != nil && !p.first(firstRune(o.Name)):
		problems = append(problems, fmt.Sprintf("starts with %q, not allowed first", firstRune(o.Name)))
		badChar = true
	case badChar:
		problems = append(problems, fmt.Sprintf("has %q, outside %s", bad, p.charset))
	}
	if len(problems) > 0 {
		c.Severity = Fail
	}
	limit := p.max
	if p.warnAbove > 0 {
		limit = p.warnAbove
	}
	switch {
	case n > p.max:
		problems = append(problems, fmt.Sprintf("is over %d", p.max))
		c.Severity = Fail
	case n > limit:
		problems = append(problems, fmt.Sprintf("is over the documented %d (accepted up to %d, observed)", limit, p.max))
		c.Severity = max(c.Severity, Warn)
	}
	rule := p.pattern
	if c.Severity == Pass && p.extra != nil {
		if w := p.extra(o.Name); w != "" {
			c.Severity = Warn
			problems = append(problems, w)
			rule = p.extraRule
		}
	}
	if c.Severity == Pass {
		return c
	}
	c.Message = fmt.Sprintf("%s: server %s, wire name %q: registered name %q (%d characters) %s (rule %s)",
		p.Name, o.Server, o.Wire, o.Name, n, strings.Join(problems, " and "), rule)
	switch excess := n - limit; {
	case o.Name == "":
	case !badChar && excess > 0 && o.Server != "" && strings.Contains(o.Name, o.Server) &&
		utf8.RuneCountInString(o.Server) > excess:
		c.Message += fmt.Sprintf("; remedy: a server label at least %d characters shorter, or a hashing policy such as qwen", excess)
	case badChar || excess > 0:
		c.Message += "; remedy: a hashing policy such as qwen"
	}
	return c
}

// CheckWireName is the MCP spec's advice for wire names: 1..128 characters
// of [A-Za-z0-9_.-]. Breaking it is a warning, never a failure: the server
// may still be called under the name.
func CheckWireName(wire string) Check {
	c := Check{Profile: "mcp-spec"}
	n := utf8.RuneCountInString(wire)
	var problems []string
	if wire == "" {
		problems = append(problems, "is empty")
	} else if bad, found := firstOutside(wire, isSpecChar); found {
		problems = append(problems, fmt.Sprintf("has %q, outside [A-Za-z0-9_.-]", bad))
	}
	if n > 128 {
		problems = append(problems, "is over 128")
	}
	if len(problems) == 0 {
		return c
	}
	c.Severity = Warn
	c.Message = fmt.Sprintf("mcp-spec: wire name %q (%d characters) %s; the spec says SHOULD be 1..128 of [A-Za-z0-9_.-]",
		wire, n, strings.Join(problems, " and "))
	return c
}

// bedrockAgents is the stricter rule of Bedrock Agents.
func bedrockAgents(name string) string {
	if !isASCIILetter(firstRune(name)) {
		return fmt.Sprintf("starts with %q, not a letter", firstRune(name))
	}
	if bad, found := firstOutside(name, func(r rune) bool { return r != '-' && isOpenAIChar(r) }); found {
		return fmt.Sprintf("has %q, outside [a-zA-Z0-9_]", bad)
	}
	return ""
}

// firstOutside returns the first rune of s for which ok is false. Invalid
// UTF-8 comes back as utf8.RuneError.
func firstOutside(s string, ok func(rune) bool) (rune, bool) {
	for _, r := range s {
		if !ok(r) {
			return r, true
		}
	}
	return 0, false
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

func isOpenAIChar(r rune) bool {
	return isASCIILetter(r) || r >= '0' && r <= '9' || r == '_' || r == '-'
}

func isGeminiChar(r rune) bool { return isOpenAIChar(r) || r == '.' || r == ':' }

func isSpecChar(r rune) bool { return isOpenAIChar(r) || r == '.' }
