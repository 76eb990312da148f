#!/bin/sh
# Records alpha.jsonl and beta.jsonl: the demo servers alpha and beta, each
# run through `mcplens tap`, driven by `mcplens call` presenting itself as
# Claude Code and calling each server's request once. Run from this folder
# with the mcplens to record with first on PATH:
#   go build -o /tmp/mcplens-bin/mcplens ../.. && PATH=/tmp/mcplens-bin:$PATH ./record.sh
set -e
for s in alpha beta; do
	rm -f "$s.jsonl"
	mcplens call request --client claude-code@2.1 --args '{"verb":"list"}' \
		-- mcplens tap --name "$s" --record "$s.jsonl" --feed=false -- mcplens __demo-server "$s" >/dev/null
done
