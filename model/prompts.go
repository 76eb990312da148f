package model

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Prompt naming: clients that offer MCP prompts offer them as slash
// commands, each under a name of their own making, and two servers' prompts
// can want one command exactly as two servers' tools can want one tool
// name. A PromptPolicy is such a client's rule. It registers through the
// builder tools use, so every listed prompt gets exactly one Outcome (its
// Name the slash command without its leading '/': a prompt whose command is
// its own name is Registered, any other Renamed) and a lost command says
// why.

// Where each prompt rule was read, and when (read, clients.go).
const (
	claudeCodePromptSource = "https://code.claude.com/docs/en/mcp (\"Use MCP prompts as commands\": " +
		"/mcp__servername__promptname); the sanitizing is its tool names', and first declared wins, both unconfirmed"
	geminiPromptSource = "https://github.com/google-gemini/gemini-cli/blob/da3f1ac4451ad41cc96b7ed96b4915655a9c784c/" +
		"packages/cli/src/services/McpPromptLoader.ts (name trimmed, whitespace runs to '-') and " +
		"https://github.com/google-gemini/gemini-cli/blob/02c9252326a90a26e31cd460c4136c7410fe3058/" +
		"packages/cli/src/services/SlashCommandResolver.ts (every MCP prompt sharing a name, with another prompt " +
		"or a built-in command, is renamed server.name, then numbered); the built-in commands are those " +
		"BuiltinCommandLoader.ts loads whatever the settings, at " +
		"https://github.com/google-gemini/gemini-cli/blob/004a2798dd68e397e13d911dc4728bc640638be9/" +
		"packages/cli/src/services/BuiltinCommandLoader.ts, each named as its file (unconfirmed)"
	vscodePromptSource = "https://github.com/microsoft/vscode/blob/006c4ca931cf8116352d6a3f1a2056320f5e6194/" +
		"src/vs/workbench/contrib/mcp/common/mcpTypes.ts (mcpPromptReplaceSpecialChars) and mcpServer.ts " +
		"(McpPrompt.id = label + \".\" + name); the chat input offers /mcp.{id}; which of two equal ids a typed " +
		"command reaches is unconfirmed: mcplens gives it to the first declared. Cursor (a VS Code fork) is taken " +
		"to name prompts alike, unconfirmed"
	codexPromptSource = "https://github.com/openai/codex/issues/8342 (\"Expose MCP Server Prompts as Slash " +
		"Commands\", open): Codex offers no MCP prompt as a command"
)

// A PromptPolicy is one client's rule for turning the prompts of several
// servers into slash commands.
type PromptPolicy struct {
	// Name is the client policy's name (PromptPolicyFor).
	Name    string
	Summary string
	// Source says where the rule was read, and when.
	Source string

	apply func(b *builder)
}

// PromptPolicies returns every prompt naming mcplens knows.
func PromptPolicies() []PromptPolicy {
	return []PromptPolicy{
		{Name: "claude-code", Summary: "/mcp__server__prompt, sanitized, first wins", Source: claudeCodePromptSource + "; read " + read, apply: applyClaudeCodePrompts},
		{Name: "gemini-cli", Summary: "/prompt, or /server.prompt for every server sharing it", Source: geminiPromptSource + "; read " + read, apply: applyGeminiPrompts},
		{Name: "vscode", Summary: "/mcp.server.prompt, sanitized, first wins", Source: vscodePromptSource + "; read " + read, apply: applyVSCodePrompts},
		{Name: "codex", Summary: "no MCP prompt is a command", Source: codexPromptSource + "; read " + read, apply: dropPrompts("codex offers no MCP prompt as a command")},
	}
}

// PromptPolicyFor returns the prompt naming of the client whose tool
// naming policy is named toolPolicy. A policy of a client whose prompt
// naming mcplens does not know gets a PromptPolicy of that name that
// registers no prompt and says so on every row.
func PromptPolicyFor(toolPolicy string) PromptPolicy {
	for _, p := range PromptPolicies() {
		if p.Name == toolPolicy {
			return p
		}
	}
	return PromptPolicy{
		Name:    toolPolicy,
		Summary: "prompts not named",
		Source:  "mcplens knows no prompt naming for this policy",
		apply:   dropPrompts("policy " + toolPolicy + " has no known prompt naming"),
	}
}

// Apply registers the prompts of cats, taken in the order given (the
// config's declaration order), as the client's slash commands. Like
// Policy.Apply it is pure and gives every listed prompt one Outcome.
func (p PromptPolicy) Apply(cats []PromptCatalogue) *Registry {
	rows := make([]Catalogue, len(cats))
	for i, c := range cats {
		rows[i] = c.rows()
	}
	b := newBuilder(p.Name, rows)
	if p.apply == nil {
		dropPrompts("no prompt naming selected")(b)
	} else {
		p.apply(b)
	}
	return b.finish()
}

// dropPrompts drops every prompt with the reason.
func dropPrompts(reason string) func(b *builder) {
	return func(b *builder) {
		b.rows(func(ref rowRef, _ *Tool) {
			if !b.unusable(ref) {
				b.drop(ref, reason, "")
			}
		})
	}
}

// firstWins registers each usable prompt under name(server, prompt), the
// first declared keeping a name two want.
func (b *builder) firstWinsPrompts(client string, name func(server, prompt string) string) {
	b.rows(func(ref rowRef, t *Tool) {
		if b.unusable(ref) {
			return
		}
		cmd := name(b.label(ref), t.Name)
		if holder, held := b.register(cmd, ref, firstWins); held {
			b.drop(ref, fmt.Sprintf("command %s already taken by server %s (prompt %s); %s keeps the first declared",
				cmd, b.label(holder), b.outcome(holder).Wire, client), b.label(holder))
		}
	})
}

// applyClaudeCodePrompts is Claude Code's: /mcp__{server}__{prompt}, each
// part sanitized as its tool names are.
func applyClaudeCodePrompts(b *builder) {
	b.firstWinsPrompts("claude-code", func(server, prompt string) string { return ClaudeCodeName(server, prompt) })
}

// promptUnits are the characters VS Code keeps in a prompt's id.
var promptUnits = unitsOf(isSpecChar)

// applyVSCodePrompts is VS Code's: /mcp.{label.prompt}, every UTF-16 code
// unit outside [a-zA-Z0-9_.-] of "label.prompt" replaced by '_'. Nothing
// separates label from prompt but a '.', which both may hold.
func applyVSCodePrompts(b *builder) {
	b.firstWinsPrompts("vscode", VSCodePromptName)
}

// VSCodePromptName is VS Code's slash command for a server's prompt,
// without its '/'.
func VSCodePromptName(server, prompt string) string {
	return "mcp." + replaceUnits(server+"."+prompt, promptUnits)
}

var whitespaceRun = regexp.MustCompile(`\s+`)

// geminiBuiltins are Gemini CLI's built-in commands that load whatever
// the settings: a prompt wanting one of these names is renamed.
var geminiBuiltins = map[string]bool{
	"about": true, "auth": true, "bug": true, "chat": true, "clear": true, "commands": true, "compress": true,
	"copy": true, "corgi": true, "docs": true, "directory": true, "editor": true, "extensions": true, "help": true,
	"ide": true, "init": true, "mcp": true, "memory": true, "model": true, "policies": true, "privacy": true,
	"quit": true, "restore": true, "resume": true, "stats": true, "theme": true, "tools": true, "settings": true,
	"tasks": true, "vim": true,
}

// GeminiPromptName is Gemini CLI's command name for a prompt before any
// conflict, without its '/': the name trimmed, each run of whitespace
// written as '-'.
func GeminiPromptName(prompt string) string {
	return whitespaceRun.ReplaceAllString(strings.TrimSpace(prompt), "-")
}

// applyGeminiPrompts is Gemini CLI's: a prompt is /{name} while no other
// MCP prompt and no built-in command wants that name; every prompt sharing
// one is renamed /{server}.{name}, numbered 1, 2, ... after when that is
// taken too. A
// command registered later under a name already held replaces it (a Map
// set), so a prompt literally named "alpha.greet" displaces alpha's renamed
// greet.
func applyGeminiPrompts(b *builder) {
	type claim struct {
		ref  rowRef
		name string
	}
	var claims []claim
	servers := map[string][]string{} // name -> labels of its claimants
	b.rows(func(ref rowRef, t *Tool) {
		if b.unusable(ref) {
			return
		}
		name := GeminiPromptName(t.Name)
		claims = append(claims, claim{ref, name})
		servers[name] = append(servers[name], b.label(ref))
	})
	for _, c := range claims {
		label, sharing := b.label(c.ref), servers[c.name]
		builtin := geminiBuiltins[c.name]
		if len(sharing) == 1 && !builtin {
			b.overwrite(c.name, c.ref)
			continue
		}
		base := label + "." + c.name
		renamed := base
		for n := 1; ; n++ {
			if _, taken := b.reg.index[renamed]; !taken {
				break
			}
			renamed = base + strconv.Itoa(n)
		}
		b.overwrite(renamed, c.ref)
		o := b.outcome(c.ref)
		if builtin {
			o.Reason = fmt.Sprintf("/%s is a built-in command of gemini-cli, which keeps it: the prompt is renamed server.prompt", c.name)
			continue
		}
		o.By = other(sharing, label)
		o.Reason = fmt.Sprintf("%s is wanted by %d prompts (servers %s): gemini-cli renames each to server.prompt",
			c.name, len(sharing), strings.Join(sharing, ", "))
	}
}

// other returns the first label of labels that is not label, or label.
func other(labels []string, label string) string {
	for _, l := range labels {
		if l != label {
			return l
		}
	}
	return label
}
