// Command latelog is an MCP server over stdio, written by hand so the order
// of its lines is exact: its one tool, "finish", answers and then logs
// (notifications/message) that it finished, after the result, as servers
// often do. With -exit it then exits, ending its stream.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	exit := flag.Bool("exit", false, "exit after the log message that follows a result")
	after := flag.Duration("after", 50*time.Millisecond, "how long after the result the log message is sent")
	flag.Parse()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // a notification
		}
		switch req.Method {
		case "initialize":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"latelog","version":"1"}}}`+"\n", req.ID)
		case "tools/list":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"finish","inputSchema":{"type":"object"}}]}}`+"\n", req.ID)
		case "tools/call":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"done"}]}}`+"\n", req.ID)
			out.Flush()
			time.Sleep(*after) // the client has the result by now
			fmt.Fprintln(out, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"job","data":"finished after the result"}}`)
			out.Flush()
			if *exit {
				os.Exit(0)
			}
		default:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no such method"}}`+"\n", req.ID)
		}
		out.Flush()
	}
}
