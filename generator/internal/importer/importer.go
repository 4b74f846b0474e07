// Package importer turns a third-party price table into catalog offers
// TOML for review ("generator import -format fsdl|skypilot|gcp|azure|aws
// FILE"): the FSDL and SkyPilot CSV tables, the GCP pricing.yml of
// Cyclenerd/google-cloud-pricing-cost-calculator, Azure Retail Prices API
// JSON (and the keyed snapshots azure-pricing-radar keeps of it), and the
// instances.vantage.sh-derived JavaScript data of tsaol/aws-gpu.
//
// It never guesses and never drops a row silently: every row (or value,
// for the structured formats) it cannot map (unknown cloud, unknown or
// ambiguous GPU, a region the provider file lacks) or that fails a check
// (blank price, inconsistent per-GPU price or GPU memory, a range where a
// number belongs, a duplicate instance, a spot price above on-demand) is
// reported as FILE:LINE:COL, with every fault of the row, and is left out
// of the output; rows outside the catalog's scope (CPU-only machines,
// Windows licences) are counted as skipped. The rows that pass become one
// offers file per provider, written in the catalog's format with
// placeholders (regions) a reviewer must fill in where the source says
// nothing, and, for the formats that carry them, the provider's dated
// hidden costs ([[extra_costs]]). MergeInto adds the result to a
// catalog's own files as new observations (history), never overwriting.
package importer

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/schema"
)

// Formats returns the input formats Import reads.
func Formats() []string { return []string{"fsdl", "skypilot", "gcp", "azure", "aws"} }

// FSDLSource is the pinned URL of the Full Stack Deep Learning cloud GPU
// table; imported FSDL prices cite it as their source.
const FSDLSource = "https://github.com/the-full-stack/website/blob/2bddc6d/docs/cloud-gpus/cloud-gpus.csv"

// FSDLDataset is the id of the FSDL dataset in data/site.toml.
const FSDLDataset = "fsdl-cloud-gpus"

// generatedMarker starts the second line of every file Import writes;
// WriteDir only replaces files that carry it.
const generatedMarker = `# Imported by "generator import`

// Options says what to import and against which catalog.
type Options struct {
	Format string // fsdl or skypilot
	// File is the path of the table as given; reports name it.
	File string
	// AsOf is the date the prices were true, for tables without a date
	// column (required for skypilot and for FSDL without "Row Last
	// Changed"). Zero when not given.
	AsOf time.Time
	// Provider is the provider id of a SkyPilot table; empty means the
	// table's directory name (aws/vms.csv) through the cloud table.
	Provider string
	// Source is the URL a SkyPilot table was read from (required for
	// skypilot: every price needs a source).
	Source string
	// Catalog holds the GPUs (ids, memory) and providers (ids, regions)
	// rows are checked against.
	Catalog *catalog.Catalog
	// Now is the date dates are judged against (no future dates).
	Now time.Time
	// Evidence is the evidence kind of the imported prices (gcp, azure,
	// aws: required); FSDL rows are community-dataset.
	Evidence string
	// DateBasis is how AsOf (or the date the file states) was established
	// (optional, written as each price's date_basis).
	DateBasis string
	// Capture and CaptureSHA, when set, are the stored capture the file
	// is a body of (its path under data/captures/ and the capture file's
	// SHA-256): every price cites them.
	Capture, CaptureSHA string
	// Currency is the currency of the prices when the file does not say
	// (azure snapshots without currencyCode, aws); empty: USD for the
	// formats whose source documents it.
	Currency string
}

// UsageError is an error in how Import was asked (a missing flag, an
// unknown format), as opposed to a problem with the table.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Result is what an import produced.
type Result struct {
	Files    []File     // one offers file per provider, sorted by provider id
	Imported int        // rows that became (part of) an offer
	Reported int        // rows with at least one report; none of them is imported
	Skipped  int        // rows outside the catalog's scope (CPU-only instances, Windows prices)
	Reports  *diag.List // FILE:ROW:COL: message, one per problem
	// Costs are the providers' hidden costs the file carries, one
	// [[extra_costs]] snippet per provider (gcp, azure storage).
	Costs []File
	// SkipReasons counts the skipped rows by reason.
	SkipReasons map[string]int
	regions     []RegionDecl
}

// File is one generated offers file.
type File struct {
	Provider string // provider id; the file is <Provider>.toml
	Offers   int    // offers (or, for a costs snippet, entries)
	Text     []byte
	// offers and costs keep the parsed result for MergeInto.
	offers []*offer
	costs  []cost
}

// Import reads a table and returns the offers files and the reports. It
// returns an error only when it cannot run: a usage error (*UsageError),
// or a table it cannot read at all (no header, missing columns).
func Import(r io.Reader, o Options) (*Result, error) {
	if o.Catalog == nil {
		return nil, errors.New("import: no catalog to check rows against")
	}
	switch o.Format {
	case "gcp", "azure", "aws":
		return importStructured(r, o)
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the header row: %v", o.File, err)
	}
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff")
	}
	t := &table{file: o.File, header: header, cols: map[string]int{}}
	for i, h := range header {
		t.cols[strings.TrimSpace(h)] = i
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", o.File, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		t.rows = append(t.rows, csvRow{line: line, fields: rec})
	}
	imp := &importer{o: o, t: t, file: o.File, reports: &diag.List{}, reported: map[int]bool{}}
	var offers []*offer
	switch o.Format {
	case "fsdl":
		offers, err = imp.fsdl()
	case "skypilot":
		offers, err = imp.skypilot()
	default:
		return nil, &UsageError{fmt.Sprintf("unknown -format %q (want one of: %s)", o.Format, strings.Join(Formats(), ", "))}
	}
	if err != nil {
		return nil, err
	}
	return imp.result(offers), nil
}

// result groups the offers by provider and renders their files.
func (imp *importer) result(offers []*offer) *Result {
	res := &Result{Reports: imp.reports, Reported: len(imp.reported), Skipped: imp.skipped, SkipReasons: imp.skipReasons, regions: imp.regionDecls}
	byProvider := map[string][]*offer{}
	for _, of := range offers {
		byProvider[of.provider] = append(byProvider[of.provider], of)
		res.Imported += len(of.rows)
	}
	ids := make([]string, 0, len(byProvider))
	for id := range byProvider {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		res.Files = append(res.Files, File{Provider: id, Offers: len(byProvider[id]), Text: imp.render(id, byProvider[id]), offers: byProvider[id]})
	}
	byCost := map[string][]cost{}
	var cids []string
	for _, c := range imp.costs {
		if byCost[c.provider] == nil {
			cids = append(cids, c.provider)
		}
		byCost[c.provider] = append(byCost[c.provider], c)
	}
	sort.Strings(cids)
	for _, id := range cids {
		res.Costs = append(res.Costs, File{Provider: id, Offers: len(byCost[id]), Text: imp.renderCosts(id, byCost[id]), costs: byCost[id]})
	}
	return res
}

// table is the CSV read into rows, with its column positions.
type table struct {
	file   string
	header []string
	cols   map[string]int // column name -> 0-based index
	rows   []csvRow
}

type csvRow struct {
	line   int // 1-based line of the row in the file
	fields []string
}

// column is a column of the table: its name and 0-based index, or -1
// when the table lacks it.
type column struct {
	name string
	idx  int
}

func (t *table) col(name string) column {
	if i, ok := t.cols[name]; ok {
		return column{name, i}
	}
	return column{name, -1}
}

// require returns the columns, or an error naming those the table lacks.
func (t *table) require(format string, names ...string) (map[string]column, error) {
	out := map[string]column{}
	var missing []string
	for _, n := range names {
		c := t.col(n)
		if c.idx < 0 {
			missing = append(missing, fmt.Sprintf("%q", n))
		}
		out[n] = c
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s:1:1: not a %s table: missing column(s) %s (the header is: %s)", t.file, format, strings.Join(missing, ", "), strings.Join(t.header, ","))
	}
	return out, nil
}

// get returns a row's field of a column, trimmed.
func (r csvRow) get(c column) string {
	if c.idx < 0 || c.idx >= len(r.fields) {
		return ""
	}
	return strings.TrimSpace(r.fields[c.idx])
}

type importer struct {
	o           Options
	t           *table
	reports     *diag.List
	reported    map[int]bool // lines with a report
	skipped     int
	skipReasons map[string]int
	costs       []cost
	file        string // the file name reports carry (structured formats)
	// importedValues and reportedValues count the price values of a
	// structured file (structured.go).
	importedValues, reportedValues int
	regionDecls                    []RegionDecl
}

// report records a problem with a row's field.
func (im *importer) report(line int, c column, format string, args ...any) {
	col := c.idx + 1
	msg := fmt.Sprintf(format, args...)
	if c.name != "" {
		msg = fmt.Sprintf("column %q: %s", c.name, msg)
	}
	if col < 1 {
		col = 1
	}
	im.reports.Errorf(im.t.file, line, col, "%s", msg)
	im.reported[line] = true
}

// offer is one offer to write, built from one or more rows.
type offer struct {
	provider string
	instance string
	gpu      *catalog.GPU
	count    int
	vcpu     string // as written in the table ("" when unknown)
	ramGB    string
	regions  []string
	currency string
	prices   []price
	rows     []int // the lines it came from
	note     string
}

type price struct {
	billing    string
	value      string
	unit       string // "" or "hour": not written
	term       int
	payment    string
	commitment string
	region     string
	asOf       time.Time
	dateBasis  string
	source     string
	evidence   string
	dataset    string
	// capture and captureSHA cite a stored capture (generator capture).
	capture, captureSHA string
}

// parseNumber reads a price or size. It reports blanks (when required),
// ranges ("8-16"), text and values not above zero.
func (im *importer) parseNumber(row csvRow, c column, required bool) (float64, string, bool) {
	s := row.get(c)
	if s == "" {
		if required {
			im.report(row.line, c, "blank; the value is required")
		}
		return 0, "", !required
	}
	if isRange(s) {
		im.report(row.line, c, "range %q is not one value; the catalog takes a single figure", s)
		return 0, "", false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		im.report(row.line, c, "%q is not a number", s)
		return 0, "", false
	}
	if !(v > 0) {
		im.report(row.line, c, "%s must be greater than 0", s)
		return 0, "", false
	}
	return v, strconv.FormatFloat(v, 'f', -1, 64), true
}

// parseCount reads a whole, positive count.
func (im *importer) parseCount(row csvRow, c column, required bool) (int, string, bool) {
	v, s, ok := im.parseNumber(row, c, required)
	if !ok || s == "" {
		return 0, "", ok
	}
	if v != math.Trunc(v) || v > 1<<20 {
		im.report(row.line, c, "%s is not a whole number", row.get(c))
		return 0, "", false
	}
	return int(v), s, true
}

func isRange(s string) bool {
	i := strings.IndexByte(s, '-')
	if i <= 0 || i == len(s)-1 {
		return false
	}
	_, e1 := strconv.ParseFloat(strings.TrimSpace(s[:i]), 64)
	_, e2 := strconv.ParseFloat(strings.TrimSpace(s[i+1:]), 64)
	return e1 == nil && e2 == nil
}

// parseDate reads a YYYY-MM-DD date that is not in the future.
func (im *importer) parseDate(row csvRow, c column) (time.Time, bool) {
	s := row.get(c)
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		im.report(row.line, c, "%q is not a date (YYYY-MM-DD)", s)
		return time.Time{}, false
	}
	if d.After(im.o.Now) {
		im.report(row.line, c, "%s is in the future (today is %s)", s, im.o.Now.Format(time.DateOnly))
		return time.Time{}, false
	}
	return d, true
}

// gpu resolves a GPU name through an alias table and the catalog.
func (im *importer) gpu(row csvRow, c column, table map[string]gpuAlias, provider, instance string) *catalog.GPU {
	name := row.get(c)
	id, err := resolveGPU(table, name, provider, instance)
	if err != nil {
		im.report(row.line, c, "%v", err)
		return nil
	}
	g := im.o.Catalog.GPU(id)
	if g == nil {
		im.report(row.line, c, "%q maps to GPU %q, which is not in data/gpus", name, id)
	}
	return g
}

// candidates returns the catalog GPUs an ambiguous alias may mean.
func (im *importer) candidates(table map[string]gpuAlias, name string) []*catalog.GPU {
	var out []*catalog.GPU
	for _, c := range table[name].candidates {
		if g := im.o.Catalog.GPU(c); g != nil {
			out = append(out, g)
		}
	}
	return out
}

// skip counts a row outside the catalog's scope, by reason.
func (im *importer) skip(reason string) {
	im.skipped++
	if im.skipReasons == nil {
		im.skipReasons = map[string]int{}
	}
	im.skipReasons[reason]++
}

// render writes the offers of one provider as catalog TOML.
func (im *importer) render(provider string, offers []*offer) []byte {
	var b strings.Builder
	directive, _ := schema.Directive("data/offers/" + provider + ".toml")
	b.WriteString(directive + "\n")
	if im.o.Format == "capture" {
		fmt.Fprintf(&b, "# Written by \"generator capture\" from %s.\n", im.o.File)
	} else {
		fmt.Fprintf(&b, "%s -format %s\" from %s.\n", generatedMarker, im.o.Format, filepath.Base(im.o.File))
	}
	b.WriteString("# For review: check every offer against the provider's own page before merging it into\n")
	fmt.Fprintf(&b, "# data/offers/%s.toml, and run `go run ./generator check`.\n", provider)
	switch im.o.Format {
	case "fsdl":
		b.WriteString("# The FSDL table names no regions: fill in each offer's region ids (`check` fails until then).\n")
		b.WriteString("# Rows from the Full Stack Deep Learning cloud GPU table (MIT licence,\n")
		b.WriteString("# Copyright (c) 2023 Full Stack Deep Learning, LLC), " + FSDLSource + "\n")
	case "skypilot":
		b.WriteString("# Rows from the SkyPilot catalog, " + im.o.Source + "\n")
	default:
		b.WriteString("# Prices from " + im.o.Source + " (" + sourceNote(im.o.Format) + ")\n")
	}
	for _, of := range offers {
		b.WriteString("\n[[offers]]\n")
		kv(&b, "instance", tomlString(of.instance))
		kv(&b, "gpu", tomlString(of.gpu.ID))
		kv(&b, "gpu_count", strconv.Itoa(of.count))
		kv(&b, "vram_per_gpu_gb", num(of.gpu.MemoryGB))
		kv(&b, "vram_total_gb", num(float64(of.count)*of.gpu.MemoryGB))
		if of.vcpu != "" {
			kv(&b, "vcpu", of.vcpu)
		}
		if of.ramGB != "" {
			kv(&b, "ram_gb", of.ramGB)
		}
		if len(of.regions) == 0 {
			fmt.Fprintf(&b, "regions = []                     # fill in: region ids of data/providers/%s.toml\n", provider)
		} else {
			quoted := make([]string, len(of.regions))
			for i, r := range of.regions {
				quoted[i] = tomlString(r)
			}
			kv(&b, "regions", "["+strings.Join(quoted, ", ")+"]")
		}
		kv(&b, "currency", tomlString(of.currency))
		kv(&b, "notes", tomlString(of.note))
		for _, p := range of.prices {
			b.WriteString(p.toml())
		}
	}
	return []byte(b.String())
}

// toml writes the price as an [[offers.prices]] block.
func (p price) toml() string {
	var b strings.Builder
	b.WriteString("\n[[offers.prices]]\n")
	kv(&b, "billing", tomlString(p.billing))
	kv(&b, "price", p.value)
	if p.unit != "" && p.unit != "hour" {
		kv(&b, "unit", tomlString(p.unit))
	}
	if p.term > 0 {
		kv(&b, "term_months", strconv.Itoa(p.term))
	}
	if p.payment != "" {
		kv(&b, "payment", tomlString(p.payment))
	}
	if p.commitment != "" {
		kv(&b, "commitment", tomlString(p.commitment))
	}
	if p.region != "" {
		kv(&b, "region", tomlString(p.region))
	}
	kv(&b, "as_of", p.asOf.Format(time.DateOnly))
	if p.dateBasis != "" {
		kv(&b, "date_basis", tomlString(p.dateBasis))
	}
	kv(&b, "source", tomlString(p.source))
	if p.capture != "" {
		kv(&b, "capture", tomlString(p.capture))
		kv(&b, "capture_sha256", tomlString(p.captureSHA))
	}
	if p.evidence != "" {
		kv(&b, "evidence", tomlString(p.evidence))
	}
	if p.dataset != "" {
		kv(&b, "dataset", tomlString(p.dataset))
	}
	return b.String()
}

func kv(b *strings.Builder, k, v string) { fmt.Fprintf(b, "%s = %s\n", k, v) }

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// lines formats line numbers for a message: "row 3", "rows 3, 7".
func lines(ls []int) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = strconv.Itoa(l)
	}
	if len(ls) == 1 {
		return "row " + parts[0]
	}
	return "rows " + strings.Join(parts, ", ")
}

// WriteDir writes the result's files into dir (created if needed) and
// returns their paths. It replaces only files an earlier import wrote,
// never a hand-edited offers file.
func WriteDir(dir string, res *Result) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range res.Files {
		p := filepath.Join(dir, f.Provider+".toml")
		old, err := os.ReadFile(p)
		if err == nil && !strings.Contains(firstLines(string(old), 3), generatedMarker) {
			return nil, fmt.Errorf("%s exists and was not written by import; not overwriting it (choose another -out)", p)
		}
	}
	var paths []string
	for _, f := range res.Files {
		p := filepath.Join(dir, f.Provider+".toml")
		if err := os.WriteFile(p, f.Text, 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

func firstLines(s string, n int) string {
	parts := strings.SplitN(s, "\n", n+1)
	if len(parts) > n {
		parts = parts[:n]
	}
	return strings.Join(parts, "\n")
}
