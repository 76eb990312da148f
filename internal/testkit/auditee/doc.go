// Package auditee builds the auditee MCP test server
// (testdata/servers/auditee) for mcplens audit's tests, once per test
// binary, and starts it over stdio or streamable HTTP on loopback, correct
// or wrong in exactly one way (its Modes).
//
// It is for tests only; production code never imports it.
package auditee
