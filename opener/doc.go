// Package opener is the one door through which mcplens hands a URL to a
// browser or the operating system: a URL-mode elicitation's, an OAuth
// authorization URL, any link. Check says whether a URL may go through and
// in which form (parsed and re-serialized); Open checks it and starts
// $BROWSER or the platform's opener with the URL as exactly one argument,
// never through a shell and never as an argument that starts with '-'.
//
// The rule: https to any host; http only to a loopback host (localhost,
// 127.0.0.0/8, ::1); nothing else: no other scheme (file, smb, javascript,
// data, ms-msdt...), no relative URL, no user information before the host,
// no control character, no space. A URL refused is returned with the
// reason, for the caller to show it whole (sanitized) for copying.
//
//	if err := opener.Open(u); err != nil {
//		fmt.Printf("open it yourself: %s (%v)\n", model.Sanitize(u), err)
//	}
//
// It imports the standard library alone.
package opener
