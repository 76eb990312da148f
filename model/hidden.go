package model

import (
	"cmp"
	"fmt"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Which characters hide. Unicode marks the characters a renderer may draw
// as nothing with the derived property Default_Ignorable_Code_Point:
// Other_Default_Ignorable_Code_Point, the format characters (Cf) and the
// variation selectors, less white space and a few format characters that
// do show. Text hidden in them still reaches a model: a run of tag
// characters (U+E0020 to U+E007E) spells ASCII, and a run of variation
// selectors spells one byte each (U+FE00 to U+FE0F for 0 to 15, U+E0100 to
// U+E01EF for 16 to 255), enough to carry a whole sentence after one
// visible character. mcplens treats as hidden the union of those tables,
// all of Cf (the interlinear annotation controls U+FFF9 to U+FFFB and the
// prepended concatenation marks act on layout), the private-use characters
// (Co, drawn as whatever a font happens to put there) and U+2800 BRAILLE
// PATTERN BLANK, which no property marks but which draws as a space and
// reads as a letter. The tables are the standard library's.

// hiddenTables are the Unicode tables whose characters hide text.
var hiddenTables = []*unicode.RangeTable{
	unicode.Other_Default_Ignorable_Code_Point,
	unicode.Cf,
	unicode.Variation_Selector,
	unicode.Co,
}

// brailleBlank is U+2800 BRAILLE PATTERN BLANK.
const brailleBlank = 0x2800

// The characters unsafeRune reports, as two lookups built once from the
// tables: a bit for each character below U+10000, which is nearly all text,
// and the merged ranges beyond, searched in order (an emoji is past all but
// a few).
var unsafeBMP, unsafeAstral = unsafeLookups()

func unsafeLookups() ([1 << 10]uint64, []unicode.Range32) {
	var bits [1 << 10]uint64
	var astral []unicode.Range32
	add := func(lo, hi, stride uint32) {
		for ; lo < 1<<16 && lo <= hi; lo += stride {
			bits[lo>>6] |= 1 << (lo & 63)
		}
		switch {
		case lo > hi:
		case stride == 1:
			astral = append(astral, unicode.Range32{Lo: lo, Hi: hi, Stride: 1})
		default:
			for ; lo <= hi; lo += stride {
				astral = append(astral, unicode.Range32{Lo: lo, Hi: lo, Stride: 1})
			}
		}
	}
	add(0, 0x1f, 1)
	add(0x7f, 0x9f, 1) // DEL and the C1 controls
	add(0x2028, 0x2029, 1)
	add(brailleBlank, brailleBlank, 1)
	for _, t := range hiddenTables {
		for _, rg := range t.R16 {
			add(uint32(rg.Lo), uint32(rg.Hi), uint32(rg.Stride))
		}
		for _, rg := range t.R32 {
			add(rg.Lo, rg.Hi, rg.Stride)
		}
	}
	slices.SortFunc(astral, func(a, b unicode.Range32) int { return cmp.Compare(a.Lo, b.Lo) })
	merged := astral[:0]
	for _, rg := range astral {
		if n := len(merged); n > 0 && rg.Lo <= merged[n-1].Hi+1 {
			merged[n-1].Hi = max(merged[n-1].Hi, rg.Hi)
			continue
		}
		merged = append(merged, rg)
	}
	return bits, merged
}

// unsafeRune reports whether r is a character Sanitize escapes: a control
// (C0, DEL, C1), a line or paragraph separator, or a hidden character.
func unsafeRune(r rune) bool {
	if uint32(r) < 1<<16 {
		return unsafeBMP[r>>6]&(1<<(r&63)) != 0
	}
	for _, rg := range unsafeAstral {
		if uint32(r) < rg.Lo {
			return false
		}
		if uint32(r) <= rg.Hi {
			return true
		}
	}
	return false
}

// hiddenRune reports whether r is a hidden character: one unsafeRune
// reports that is not a control or a separator.
func hiddenRune(r rune) bool {
	return r >= 0xa0 && r != 0x2028 && r != 0x2029 && unsafeRune(r)
}

// Variation selectors and tag characters as the steganographic encodings
// use them.
const (
	tagFirst, tagLast = 0xe0020, 0xe007e // spell ASCII 0x20 to 0x7e
	vsFirst, vsLast   = 0xfe00, 0xfe0f   // spell bytes 0 to 15
	vssFirst, vssLast = 0xe0100, 0xe01ef // spell bytes 16 to 255
)

// vsByte returns the byte a variation selector spells, if r is one of the
// 256 that spell bytes.
func vsByte(r rune) (byte, bool) {
	switch {
	case r >= vsFirst && r <= vsLast:
		return byte(r - vsFirst), true
	case r >= vssFirst && r <= vssLast:
		return byte(r - vssFirst + 16), true
	}
	return 0, false
}

// presentationSelector reports whether the character at byte i of s, known
// to be a variation selector, is a lone U+FE0E or U+FE0F after a symbol: the
// way text asks for an emoji (⚠️) or a keycap (1️⃣) to be drawn in colour or
// not. It spells nothing and is reported as a warning only.
func presentationSelector(s string, i int) bool {
	r, size := utf8.DecodeRuneInString(s[i:])
	if r != 0xfe0e && r != 0xfe0f || i == 0 {
		return false
	}
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	next, _ := utf8.DecodeRuneInString(s[i+size:])
	if _, ok := vsByte(next); ok || unicode.Is(unicode.Variation_Selector, prev) {
		return false
	}
	if prev < utf8.RuneSelf {
		return next == 0x20e3 && (prev >= '0' && prev <= '9' || prev == '#' || prev == '*') // keycap
	}
	return !unsafeRune(prev) && (unicode.IsSymbol(prev) || unicode.IsPunct(prev))
}

// A payload is what a text's tag characters or variation selectors spell:
// their bytes in order, all runs together (one selector after each visible
// character spells as much as one run after one).
type payload struct {
	b []byte // the first payloadKept bytes
	n int    // all the bytes
}

const (
	payloadKept  = 1 << 10
	payloadShown = 120 // characters shown in evidence
)

func (p *payload) add(c byte) {
	if len(p.b) < payloadKept {
		p.b = append(p.b, c)
	}
	p.n++
}

// text returns what p spells, quoted and cut to payloadShown characters,
// and whether it is text worth showing: printable, two characters or more,
// not all white space. One hidden character spells a letter by chance.
func (p payload) text() (string, bool) {
	b := p.b
	cut := p.n > len(b)
	if cut { // the kept bytes may end inside a character
		for k := 0; k < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); k++ {
			b = b[:len(b)-1]
		}
	}
	if !utf8.Valid(b) || utf8.RuneCount(b) < 2 {
		return "", false
	}
	shown, blank := 0, true
	for i, r := range string(b) {
		if shown == payloadShown {
			b, cut = b[:i], true
			break
		}
		if !unicode.IsPrint(r) && r != '\n' && r != '\t' && r != '\r' {
			return "", false
		}
		blank = blank && unicode.IsSpace(r)
		shown++
	}
	if blank {
		return "", false
	}
	q := fmt.Sprintf("%q", b)
	if cut {
		q += fmt.Sprintf("... (%d bytes)", p.n)
	}
	return q, true
}
