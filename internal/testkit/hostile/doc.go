// Package hostile builds the hostile MCP test server
// (testdata/servers/hostile) for tests, once per test binary, and names its
// modes as server specs:
//
//	func TestMain(m *testing.M) {
//		code := m.Run()
//		hostile.Cleanup()
//		os.Exit(code)
//	}
//
//	spec := hostile.Spec(t, "bad", "exit-initialize")
//
// It is for tests only and imports nothing of mcplens but the test servers it builds; production code never imports it.
package hostile
