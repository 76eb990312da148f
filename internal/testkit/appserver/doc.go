// Command appserver is an MCP server with an MCP App, for mcplens's tests
// of apps: the registry per client, the apps lint and the app host.
//
//	appserver [-allow ORIGIN] [-probe URL,URL] [-read-error] [-origins N] [-uri-size N]
//
// It serves over stdio. Its tools: show_board (for the model and the app;
// its app is ui://board/app.html), board_state (for the app only; an
// optional number, level),
// model_only (for the model only, which the app tries to call), and two
// whose apps are wrong for the lint: lost_app (a resource nobody lists)
// and plain_app (a resource of type text/html). The app resource declares
// -allow as its CSP's connectDomains and asks for the camera without
// saying why. The app initializes, and on the tool's result calls
// board_state, board_state again with a level the schema refuses (a
// string), and model_only, fetches each -probe URL (mode no-cors: only the CSP can
// stop it), asks the host to open a link and to post a message, and logs
// each thing it heard back as a notifications/message to the host, whose
// data says what it was: {"heard": "tool-result", ...}. Under -read-error
// every read of the app resource fails, its error quoting $APP_TOKEN among
// terminal escapes. -origins N declares N more origins in the app's CSP,
// as resourceDomains and as connectDomains (replacing -allow). -uri-size N
// adds huge_app, whose resourceUri is about N bytes.
package main
