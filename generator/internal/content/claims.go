package content

import (
	"regexp"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
)

// Claims about the catalog in a guide's own words go stale the day the
// data changes, so a guide states them through shortcodes, which read the
// data: a price ({{< cheapest >}}), the platforms of a kind
// ({{< providers >}}). checkClaims fails a guide whose text, outside
// shortcodes, code and link targets, writes
//   - a rate (a currency, a figure and a time unit: 2.49 USD/h, 每小时
//     1.5 元) in a sentence that names no year (a dated historical
//     figure, "in 2023 ... 8 USD an hour", is a quotation);
//   - a count of the catalog's entries, or a statement that it lacks
//     prices, offers, providers, platforms or GPUs, in a sentence that
//     names the catalog (what its schema records is not data: "the
//     catalog does not list FP64 throughput" holds).
var (
	moneyRE = regexp.MustCompile(`(?i)(?:[$¥€£]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:USD|CNY|EUR|RMB|美元|元|人民币))\s?(?:/|per\s|an\s|a\s|每)\s?(?:GPU[- ]?)?(?:h\b|hr\b|hour|小时|时|卡时|card[- ]hour|month|月)|每(?:小时|卡时|月)\s?\d[\d,]*(?:\.\d+)?\s?(?:美元|元|人民币|USD|CNY)`)
	yearRE  = regexp.MustCompile(`\b(?:19|20)\d\d\b|(?:19|20)\d\d\s?年`)
	// catalogRE names the catalog: "the catalog", "this site", 目录, 本站.
	catalogRE = regexp.MustCompile(`(?i)\bcatalog(?:ue)?\b|\bthis site\b|目录|本站`)
	countRE   = regexp.MustCompile(`(?i)\b\d+\s+(?:providers|platforms|clouds|GPUs|offers|instance types|prices)\b|\d+\s?(?:家|个|款|种)\s?(?:云服务商|服务商|平台|GPU|显卡|报价|实例)`)
	lackRE    = regexp.MustCompile(`(?i)\b(?:has|lists|includes|contains|holds) no (?:current )?(?:prices?|offers?|providers?|platforms?|clouds?|GPUs?)\b|\bdoes not (?:list|include|have|hold|cover) (?:any )?(?:prices?|offers?|providers?|platforms?|clouds?|GPUs?)\b|(?:没有|未|尚未|暂未|不)收录[^，。；]{0,12}(?:平台|服务商|价格|报价|GPU|显卡|型号)|暂无[^，。；]{0,8}(?:平台|服务商|价格|报价)`)
	// sentenceEnd ends a sentence: a full stop, question or exclamation
	// mark, semicolon, or a blank line.
	sentenceEnd = regexp.MustCompile(`[。！？；]|[.!?;](?:\s|$)|\n[ \t]*\n`)
	codeSpanRE  = regexp.MustCompile("`[^`\n]*`")
	linkDestRE  = regexp.MustCompile(`\]\([^)\n]*\)`)
)

// checkClaims reports each such claim at its line and column (body
// starts at bodyLine).
func checkClaims(rel string, body []byte, bodyLine int, d *diag.List) {
	text := maskClaims(string(body))
	start := 0
	ends := sentenceEnd.FindAllStringIndex(text, -1)
	ends = append(ends, []int{len(text), len(text)})
	for _, e := range ends {
		s := text[start:e[1]]
		off := start
		start = e[1]
		if m := moneyRE.FindStringIndex(s); m != nil && !yearRE.MatchString(s) {
			line, col := position(text, off+m[0], bodyLine)
			d.Errorf(rel, line, col, "a price written into the guide goes stale with the data: use {{< cheapest \"gpu-id\" >}} (the current cheapest price, with its date), or name the year of a quoted figure")
			continue
		}
		if !catalogRE.MatchString(s) {
			continue
		}
		if m := countRE.FindStringIndex(s); m != nil {
			line, col := position(text, off+m[0], bodyLine)
			d.Errorf(rel, line, col, "a count of the catalog's entries written into the guide goes stale with the data: list them with {{< providers kind=\"...\" country=\"...\" >}}, or leave the count out")
			continue
		}
		if m := lackRE.FindStringIndex(s); m != nil {
			line, col := position(text, off+m[0], bodyLine)
			d.Errorf(rel, line, col, "a statement that the catalog lacks something goes stale with the data: list what it has with {{< providers kind=\"...\" country=\"...\" >}} (it says so when there is none)")
		}
	}
}

// maskClaims blanks what is not the guide's own prose (fenced code,
// code spans, shortcodes, link targets), keeping every byte offset.
func maskClaims(src string) string {
	b := []byte(src)
	blank := func(i, j int) {
		for k := i; k < j; k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
	}
	// Fenced code blocks: from a ``` line to the next.
	in, from := false, 0
	for off := 0; off < len(b); {
		end := strings.IndexByte(string(b[off:]), '\n')
		if end < 0 {
			end = len(b) - off
		}
		line := strings.TrimSpace(string(b[off : off+end]))
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			if in {
				blank(from, off+end)
			} else {
				from = off
			}
			in = !in
		}
		off += end + 1
	}
	if in {
		blank(from, len(b))
	}
	for _, re := range []*regexp.Regexp{shortcodeRE, codeSpanRE, linkDestRE} {
		for _, m := range re.FindAllStringIndex(string(b), -1) {
			blank(m[0], m[1])
		}
	}
	return string(b)
}

// position is the line and byte column of offset i of text, whose first
// line is bodyLine.
func position(text string, i, bodyLine int) (line, col int) {
	return bodyLine + strings.Count(text[:i], "\n"), i - strings.LastIndexByte(text[:i], '\n')
}
