package probe

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/mcpsession"
)

// logLevels are the syslog levels of notifications/message.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// listChanged maps each list_changed notification to its capability.
var listChanged = map[string]string{
	"notifications/tools/list_changed":     "tools",
	"notifications/resources/list_changed": "resources",
	"notifications/prompts/list_changed":   "prompts",
}

// notifications judges every notification the server sent during the
// audit, one finding per kind of fault.
func (a *auditor) notifications() {
	a.fs.probe("lifecycle.notifications")
	seen := map[string]bool{}
	for _, f := range a.t.all() {
		if f.Dir != mcpsession.In || f.Junk || f.Truncated() {
			continue
		}
		for _, raw := range framesMessages(f.Bytes) {
			m, ok := decode(raw)
			if !ok || m.Method == "" || len(m.ID) > 0 {
				continue
			}
			if p := a.notificationProblem(m); p != "" && !seen[p] {
				seen[p] = true
				a.fs.add("lifecycle.notifications", m.Method, p, []mcpsession.Frame{f})
			}
		}
	}
}

// framesMessages are the messages of a frame: a stdio line, or the JSON
// of an HTTP response's body or events.
func framesMessages(b []byte) [][]byte {
	if len(b) > 0 && b[0] == '{' {
		return [][]byte{b}
	}
	if !strings.HasPrefix(string(b), "HTTP ") {
		return nil
	}
	var out [][]byte
	for _, part := range strings.Split(string(b), "\n\n")[1:] {
		part = strings.TrimPrefix(part, "data: ")
		if strings.HasPrefix(part, "{") && json.Valid([]byte(part)) {
			out = append(out, []byte(part))
		}
	}
	return out
}

func (a *auditor) notificationProblem(m message) string {
	if len(m.Params) > 0 && string(m.Params) != "null" && !isObject(m.Params) {
		return fmt.Sprintf("%s has params that are not an object", m.Method)
	}
	if capability, ok := listChanged[m.Method]; ok {
		if string(jsonx.MemberFold(a.caps[capability], "listChanged")) != "true" {
			return fmt.Sprintf("%s sent, and the %s capability does not declare listChanged", m.Method, capability)
		}
	}
	if m.Method == "notifications/message" && a.stateless {
		// 2026-07-28: a log message only for a request whose _meta asks
		// for one (io.modelcontextprotocol/logLevel); the audit's never do.
		return "a log message, on a stateless revision, though no request asked for one with io.modelcontextprotocol/logLevel"
	}
	if m.Method == "notifications/message" {
		level := jsonx.String(jsonx.MemberFold(m.Params, "level"))
		if !slices.Contains(logLevels, level) || len(jsonx.MemberFold(m.Params, "data")) == 0 {
			return fmt.Sprintf("a log message of level %q or without data", level)
		}
	}
	return ""
}
