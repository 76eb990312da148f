// Package headless is a real browser for tests: Debian's Chromium
// (/usr/bin/chromium, installed by the system's package manager, never
// downloaded at run time) driven over the DevTools protocol by chromedp,
// headless, with a profile of its own, and its name resolution mapped to
// nothing but loopback so that a page under test reaches no other address.
//
//	ctx := headless.New(t) // closed when the test ends
//	err := chromedp.Run(ctx, chromedp.Navigate(url))
//
// A missing Chromium skips the test, and fails it under
// MCPLENS_REQUIRE_BROWSER=1 (CI sets it, so these tests always run there).
// It is for tests only; production code never imports it.
package headless
