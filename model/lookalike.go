package model

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lookalike limits. Short names are one edit from too many others to be
// worth a warning, and a name past the spec's 128 characters already gets
// one; neither goes into the one-edit index, which keeps it small.
const (
	lookalikeMinLen = 4
	lookalikeMaxLen = 128
)

// A wireName is one distinct wire name and where it is advertised.
type wireName struct {
	name string
	cats []int // catalogues advertising it, in order
	rows []int // its first row on each of them
}

// lookalikes finds wire names on different servers that a reader or a
// model can take for one another: equal but for case or '-' against '_', or
// one edit apart (a character changed, added or removed; both names at
// least 4 characters). Identical names are collisions, not lookalikes. A
// digit changed into another digit is not reported: get_page_1 and
// get_page_2 are a series, not a disguise.
//
// Names are never compared all against all. Case and '-'/'_' variants meet
// in buckets keyed by the folded name. One-edit pairs meet through a
// deletion index: each name contributes, for every character, its text with
// that character removed (two names that differ in one character share the
// entry for that position) and, for every boundary, itself split there (a
// name one character shorter matches the longer one's deletion at that
// place). Entries are hashed and sorted, so equal entries are adjacent, and
// every candidate pair is checked against the strings before it counts.
func lookalikes(cats []Catalogue) []finding {
	names, _ := distinctNames(cats)
	pairs := make(map[[2]int32]bool)
	add := func(a, b int32) {
		if a > b {
			a, b = b, a
		}
		if a != b && acrossServers(names[a], names[b]) {
			pairs[[2]int32{a, b}] = true
		}
	}

	folded := make(map[string][]int32)
	for id, n := range names {
		key := foldName(n.name)
		folded[key] = append(folded[key], int32(id))
	}
	for _, ids := range folded {
		for i, a := range ids {
			for _, b := range ids[i+1:] {
				add(a, b)
			}
		}
	}

	for _, p := range oneEditPairs(names) {
		add(p[0], p[1])
	}

	keys := make([][2]int32, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y [2]int32) int {
		if x[0] != y[0] {
			return int(x[0] - y[0])
		}
		return int(x[1] - y[1])
	})
	var fs []finding
	for _, k := range keys {
		a, b := names[k[0]], names[k[1]]
		fs = append(fs, lookalikeFindings(cats, a, b)...)
		fs = append(fs, lookalikeFindings(cats, b, a)...)
	}
	return fs
}

// foldName is a name with case, '-' against '_' and hidden characters taken
// out.
func foldName(s string) string { return strings.ToLower(strings.ReplaceAll(stripHidden(s), "-", "_")) }

// stripHidden is s without its hidden characters (see hidden.go): a name
// that differs from another only in them reads the same.
func stripHidden(s string) string {
	if !Suspicious(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if hiddenRune(r) {
			return -1
		}
		return r
	}, s)
}

// distinctNames lists the usable wire names of the catalogues, each once,
// in order of first appearance, and indexes them by name.
func distinctNames(cats []Catalogue) ([]wireName, map[string]int) {
	var names []wireName
	index := make(map[string]int)
	for ci, cat := range cats {
		for i, t := range cat.Tools {
			if !t.usable() {
				continue
			}
			id, ok := index[t.Name]
			if !ok {
				id = len(names)
				index[t.Name] = id
				names = append(names, wireName{name: t.Name})
			}
			n := &names[id]
			if len(n.cats) == 0 || n.cats[len(n.cats)-1] != ci {
				n.cats = append(n.cats, ci)
				n.rows = append(n.rows, i)
			}
		}
	}
	return names, index
}

// acrossServers reports whether a and b are advertised by two different
// catalogues.
func acrossServers(a, b wireName) bool {
	return len(a.cats) > 1 || len(b.cats) > 1 || a.cats[0] != b.cats[0]
}

// An editEntry is one entry of the deletion index: name id with the
// character at byte pos removed, or (split) the name cut at byte pos. It
// is kept to 12 bytes: a large surface has tens of entries per name. A
// 32-bit hash makes false matches likelier, and each is checked anyway.
type editEntry struct {
	hash  uint32
	id    int32
	pos   int16 // a byte offset; indexed names are at most 128 characters
	split bool
}

// oneEditPairs returns the pairs of names one edit apart.
func oneEditPairs(names []wireName) [][2]int32 {
	seed := maphash.MakeSeed()
	var h maphash.Hash
	h.SetSeed(seed)
	hash := func(pre, post string) uint32 {
		h.Reset()
		h.WriteString(pre)
		h.WriteByte(0xff) // not UTF-8: keeps pre and post apart; a rare false match is checked anyway
		h.WriteString(post)
		sum := h.Sum64()
		return uint32(sum ^ sum>>32)
	}
	// The index is built one name length at a time. Deleting a character
	// from a name of c characters leaves c-1, which can equal only another
	// such deletion (a substitution) or a name of c-1 characters (an
	// insertion): the index for c holds the deletions of the names of c
	// characters and the splits of those of c-1, and no more is ever held
	// at once. Indexing every name together held tens of entries per name.
	var byLen [lookalikeMaxLen + 1][]int32
	for id, n := range names {
		if c := utf8.RuneCountInString(n.name); c >= lookalikeMinLen && c <= lookalikeMaxLen {
			byLen[c] = append(byLen[c], int32(id))
		}
	}
	var (
		entries []editEntry
		pairs   [][2]int32
	)
	for c := lookalikeMinLen; c <= lookalikeMaxLen; c++ {
		if len(byLen[c]) == 0 {
			continue
		}
		entries = entries[:0]
		for _, id := range byLen[c] {
			s := names[id].name
			for i := 0; i < len(s); {
				_, w := utf8.DecodeRuneInString(s[i:]) // an invalid byte is one character of width 1
				entries = append(entries, editEntry{hash(s[:i], s[i+w:]), id, int16(i), false})
				i += w
			}
		}
		for _, id := range byLen[c-1] {
			s := names[id].name
			for i := 0; i < len(s); {
				_, w := utf8.DecodeRuneInString(s[i:])
				entries = append(entries, editEntry{hash(s[:i], s[i:]), id, int16(i), true})
				i += w
			}
			entries = append(entries, editEntry{hash(s, ""), id, int16(len(s)), true})
		}
		entries = sortByHash(entries)
		pairs = appendPairs(pairs, entries, names)
	}
	return pairs
}

// appendPairs appends the pairs of names one edit apart that the sorted
// index entries show: each deletion against every split and every later
// deletion with the same hash, checked against the strings.
func appendPairs(pairs [][2]int32, entries []editEntry, names []wireName) [][2]int32 {
	for start := 0; start < len(entries); {
		end := start + 1
		for end < len(entries) && entries[end].hash == entries[start].hash {
			end++
		}
		run := entries[start:end]
		for i, x := range run {
			if x.split {
				continue
			}
			for j, y := range run {
				if x.id == y.id || !y.split && j <= i {
					continue
				}
				if oneEdit(names[x.id].name, int(x.pos), names[y.id].name, int(y.pos), y.split) {
					pairs = append(pairs, [2]int32{x.id, y.id})
				}
			}
		}
		start = end
	}
	return pairs
}

// sortByHash orders entries by hash, in place. A comparison sort of the
// index was most of the findings' time on a large surface; the hashes are
// uniform, so one pass on their top bits moves the entries into buckets of
// a few each (an American flag sort: each entry is swapped straight into
// its bucket, so no second index is allocated), and only the buckets are
// sorted.
func sortByHash(entries []editEntry) []editEntry {
	byHash := func(a, b editEntry) int { return cmp.Compare(a.hash, b.hash) }
	if len(entries) < 1<<10 {
		slices.SortFunc(entries, byHash)
		return entries
	}
	width := bits.Len(uint(len(entries) / 4)) // about four entries a bucket
	shift := 32 - width
	start := make([]int, 1<<width+1) // bucket b is entries[start[b]:start[b+1]]
	for _, e := range entries {
		start[e.hash>>shift+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	next := slices.Clone(start[:len(start)-1]) // the first slot of b not yet filled
	for b := range len(next) {
		for next[b] < start[b+1] {
			i := next[b]
			e := entries[i]
			for t := int(e.hash >> shift); t != b; t = int(e.hash >> shift) {
				j := next[t]
				next[t]++
				entries[j], e = e, entries[j]
			}
			entries[i] = e
			next[b]++
		}
	}
	for b := range len(start) - 1 {
		if bucket := entries[start[b]:start[b+1]]; len(bucket) > 1 {
			slices.SortFunc(bucket, byHash)
		}
	}
	return entries
}

// oneEdit checks a candidate pair from the index against the strings: a
// with the character at i removed equals b with the character at j removed
// (a substitution, not between two digits), or equals b itself (split).
func oneEdit(a string, i int, b string, j int, split bool) bool {
	ra, wa := utf8.DecodeRuneInString(a[i:])
	if split {
		return a[:i] == b[:j] && a[i+wa:] == b[j:]
	}
	rb, wb := utf8.DecodeRuneInString(b[j:])
	if unicode.IsDigit(ra) && unicode.IsDigit(rb) {
		return false
	}
	return a[:i] == b[:j] && a[i+wa:] == b[j+wb:]
}

// lookalikeFindings reports a on each of its servers against b on the
// other servers advertising it.
func lookalikeFindings(cats []Catalogue, a, b wireName) []finding {
	why := lookalikeWhy(a.name, b.name)
	var fs []finding
	for k, ci := range a.cats {
		var others []string
		for _, cj := range b.cats {
			if cj != ci {
				others = append(others, cats[cj].Server)
			}
		}
		if len(others) == 0 {
			continue
		}
		fs = append(fs, finding{Finding{
			Severity: Warn,
			Kind:     "lookalike",
			Server:   cats[ci].Server,
			Tool:     a.name,
			Evidence: fmt.Sprintf("%q on %s and %q on %s %s", a.name, cats[ci].Server, b.name, serverList(others), why),
		}, ci, a.rows[k]})
	}
	return fs
}

// lookalikeWhy says how x and y differ.
func lookalikeWhy(x, y string) string {
	dash := func(s string) string { return strings.ReplaceAll(s, "-", "_") }
	switch {
	case strings.EqualFold(x, y):
		return "differ only in case"
	case dash(x) == dash(y):
		return "differ only in '-' versus '_'"
	case strings.EqualFold(dash(x), dash(y)):
		return "differ only in case and '-' versus '_'"
	case stripHidden(x) == stripHidden(y):
		return "differ only in invisible characters"
	case foldName(x) == foldName(y):
		return "differ only in invisible characters, case or '-' versus '_'"
	}
	rx, ry := []rune(x), []rune(y)
	i := 0
	for i < len(rx) && i < len(ry) && rx[i] == ry[i] {
		i++
	}
	switch {
	case len(rx) == len(ry):
		return fmt.Sprintf("are one edit apart: %q against %q at character %d", rx[i], ry[i], i+1)
	case len(rx) > len(ry):
		return fmt.Sprintf("are one edit apart: %q has an extra %q at character %d", x, rx[i], i+1)
	}
	return fmt.Sprintf("are one edit apart: %q has an extra %q at character %d", y, ry[i], i+1)
}

// serverList names servers, at most three and a count of the rest.
func serverList(labels []string) string {
	const shown = 3
	if len(labels) <= shown {
		return strings.Join(labels, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(labels[:shown], ", "), len(labels)-shown)
}
