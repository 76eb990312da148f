package model

import (
	"fmt"
	"slices"
)

// applyOpenAIAgents is the OpenAI Agents SDK for Python in its default mode:
// tools keep their bare wire names, and a name that two servers advertise
// fails the whole load, so the agent gets no MCP tools at all. The SDK lists
// servers in order and raises at the first one that repeats a name: its own
// list twice (current releases check this first), or a name of an earlier
// server. Every server then fails with that error and every row is dropped.
//
// The SDK's message lists the names as Python renders them, which has varied
// between releases (a set, a comma-joined list); mcplens writes them as a
// quoted list, so the line stays unambiguous: Duplicate tool names found
// across MCP servers: ["request"].
func applyOpenAIAgents(b *builder) {
	err, culprits := openAIAgentsError(b.cats)
	withheld := "withheld: the openai-agents load failed (" + err + ")"
	b.rows(func(ref rowRef, t *Tool) {
		if b.unusable(ref) {
			return
		}
		if err == "" {
			b.register(t.Name, ref, firstWins) // no name is shared: the load would have failed
			return
		}
		o := b.outcome(ref)
		o.Name = t.Name
		if c, ok := culprits[ref]; ok {
			b.drop(ref, c.reason+"; openai-agents fails the whole load", c.by)
			return
		}
		b.drop(ref, withheld, "")
	})
	if err == "" {
		return
	}
	for i := range b.reg.Servers {
		b.reg.Servers[i].Failed = true
		b.reg.Servers[i].Err = err
	}
}

// A culprit is a row named in the SDK's error.
type culprit struct{ reason, by string }

// openAIAgentsError returns the error the SDK raises for the catalogues, or
// "", and the rows it names.
func openAIAgentsError(cats []Catalogue) (string, map[rowRef]culprit) {
	owner := make(map[string]int) // name -> first catalogue advertising it
	for ci, cat := range cats {
		rows := make(map[string][]int) // name -> rows on this server
		var names []string
		for i, t := range cat.Tools {
			if !t.usable() {
				continue
			}
			if rows[t.Name] == nil {
				names = append(names, t.Name)
			}
			rows[t.Name] = append(rows[t.Name], i)
		}
		culprits := make(map[rowRef]culprit)
		var twice, shared []string
		for _, name := range names {
			if len(rows[name]) > 1 {
				twice = append(twice, name)
			}
		}
		if len(twice) > 0 {
			slices.Sort(twice)
			for _, name := range twice {
				for _, i := range rows[name] {
					culprits[rowRef{ci, i}] = culprit{fmt.Sprintf("%s is listed %d times by %s",
						name, len(rows[name]), cat.Server), cat.Server}
				}
			}
			return fmt.Sprintf("Duplicate tool names found on MCP server `%s`: %s", cat.Server, quotedList(twice)), culprits
		}
		for _, name := range names {
			if _, ok := owner[name]; ok {
				shared = append(shared, name)
			}
		}
		if len(shared) > 0 {
			slices.Sort(shared)
			for _, name := range shared {
				first := owner[name]
				for i, t := range cats[first].Tools {
					if t.usable() && t.Name == name {
						culprits[rowRef{first, i}] = culprit{name + " is also advertised by " + cat.Server, cat.Server}
					}
				}
				for _, i := range rows[name] {
					culprits[rowRef{ci, i}] = culprit{name + " is also advertised by " + cats[first].Server, cats[first].Server}
				}
			}
			return "Duplicate tool names found across MCP servers: " + quotedList(shared), culprits
		}
		for _, name := range names {
			owner[name] = ci
		}
	}
	return "", nil
}
