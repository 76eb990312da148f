package apphost

import (
	"html/template"
	"net/http"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// pageTemplate is the host page: a line saying which app of which server
// this is and what its resource asked for, the app in a sandboxed iframe
// (scripts and forms only: an opaque origin, no top navigation, no
// popups), and the notices. Its script relays what the iframe posts, and
// nothing else posts, to mcplens, one message at a time, and posts the
// answers back into the iframe. Server text reaches the page only through
// the template's escaping, and notices only as textContent.
var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>mcplens · {{.Tool}} on {{.Server}}</title>
<style nonce="{{.Nonce}}">
body { font: 14px system-ui, sans-serif; margin: 0; }
header, #notices { padding: 6px 10px; background: #f3f3f3; }
iframe { width: 100%; height: 70vh; border: 1px solid #ccc; box-sizing: border-box; }
#notices li { color: #8a4b00; }
</style></head>
<body>
<header>App of tool <b>{{.Tool}}</b> on <b>{{.Server}}</b> · resource {{.URI}} · CSP: {{.CSP}}{{if .Permissions}} · asks for {{.Permissions}}: not granted{{end}}</header>
<iframe id="app" sandbox="allow-scripts allow-forms" referrerpolicy="no-referrer" src="app" title="the app"></iframe>
<ul id="notices"></ul>
<script nonce="{{.Nonce}}">
"use strict";
const frame = document.getElementById("app");
const notices = document.getElementById("notices");
const queue = [];
let busy = false;
function note(text) {
  const li = document.createElement("li");
  li.textContent = text;
  notices.appendChild(li);
}
window.addEventListener("message", function (e) {
  if (e.source !== frame.contentWindow) return;
  let body;
  try { body = JSON.stringify(e.data); } catch (err) { note("the app posted a message that is not JSON"); return; }
  if (typeof body !== "string") return;
  queue.push(body);
  pump();
});
async function pump() {
  if (busy) return;
  busy = true;
  while (queue.length > 0) {
    const body = queue.shift();
    try {
      const r = await fetch("rpc", {method: "POST", headers: {"Content-Type": "application/json"}, body: body});
      if (!r.ok) { note("mcplens refused a message: " + r.status); continue; }
      const out = await r.json();
      for (const n of out.notices || []) note(n);
      for (const m of out.deliver || []) frame.contentWindow.postMessage(m, "*");
    } catch (err) {
      note("mcplens is gone: " + err);
      queue.length = 0;
    }
  }
  busy = false;
}
</script>
</body></html>
`))

// page serves the host page under its own policy: its inline code by
// nonce, the app frame and the relay from its own origin, nothing else.
func (h *Host) page(w http.ResponseWriter, _ *http.Request) {
	secure(w, "default-src 'none'; script-src 'nonce-"+h.nonce+"'; style-src 'nonce-"+h.nonce+"'; connect-src 'self'; frame-src 'self'; "+
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = pageTemplate.Execute(w, map[string]string{
		"Nonce":       h.nonce,
		"Tool":        model.Sanitize(h.o.Tool.Name),
		"Server":      model.Sanitize(h.o.Server),
		"URI":         model.Sanitize(h.o.Tool.App.ResourceURI),
		"CSP":         h.csp,
		"Permissions": strings.Join(h.bridge.res.Permissions, ", "),
	})
}
