// Package apppage posts to an app host's relay as its host page does
// (POST PAGE+"rpc", JSON, from the page's own origin), for tests that
// speak for an app without a browser (apphost's, the interface's).
package apppage
