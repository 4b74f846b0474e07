// Package catdiff compares two catalogs and reports what changed as
// Markdown, for pull-request review: GPUs, providers, offers and model
// presets added and removed, price changes per offer and price key
// (billing mode, term, unit, region; old -> new with both dates, and the
// earlier observations added or removed), and
// field changes of GPUs, providers, offers and models. Output is
// deterministic: entries sort by id, fields follow the data format.
package catdiff

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// NoChanges is the whole report when the catalogs hold the same data.
const NoChanges = "No catalog changes.\n"

// LoadError is returned when one side's catalog does not load.
type LoadError struct {
	Side  string            // "base" or "head"
	Label string            // what the side is: a directory, or a git revision
	Diags []diag.Diagnostic // the errors, paths relative to the side's root
}

func (e *LoadError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the %s catalog (%s) does not load: %d error(s)", e.Side, e.Label, len(e.Diags))
	for _, d := range e.Diags {
		b.WriteString("\n  " + d.String())
	}
	return b.String()
}

// Side is one catalog to compare: the site root to load and the label to
// name it by in messages.
type Side struct {
	Root  string
	Label string
}

// Run loads both catalogs as of now and returns the Markdown report. When
// either side does not load it returns a *LoadError (the base's first).
func Run(base, head Side, now time.Time) (string, error) {
	bc, err := load("base", base, now)
	if err != nil {
		return "", err
	}
	hc, err := load("head", head, now)
	if err != nil {
		return "", err
	}
	return Report(bc, hc), nil
}

func load(name string, s Side, now time.Time) (*catalog.Catalog, error) {
	c, d := catalog.Load(s.Root, now)
	if c == nil {
		return nil, &LoadError{Side: name, Label: s.Label, Diags: d.Errors()}
	}
	return c, nil
}

// ExtractRev writes the data/ tree of git revision rev, as seen from dir
// (a directory inside a git work tree), under dst. It runs git archive.
func ExtractRev(dir, rev, dst string) error {
	if strings.HasPrefix(rev, "-") {
		return fmt.Errorf("revision %q: a revision does not start with '-'", rev)
	}
	cmd := exec.Command("git", "-C", dir, "archive", "--format=tar", rev, "--", "data")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git archive %s data: %v: %s", rev, err, strings.TrimSpace(stderr.String()))
	}
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading git archive output: %v", err)
		}
		name := path.Clean(h.Name)
		if name == "." || strings.HasPrefix(name, "../") || path.IsAbs(name) {
			continue
		}
		p := filepath.Join(dst, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			b, err := io.ReadAll(tr)
			if err != nil {
				return err
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				return err
			}
		}
	}
}

// Report returns the Markdown report of the changes from base to head, or
// NoChanges.
func Report(base, head *catalog.Catalog) string {
	var b strings.Builder
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "### %s\n\n", title)
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	section("GPUs", gpuChanges(base, head))
	section("Providers", providerChanges(base, head))
	section("Offers", offerChanges(base, head))
	section("Prices", priceChanges(base, head))
	section("Model presets", modelChanges(base, head))
	if b.Len() == 0 {
		return NoChanges
	}
	return "## Catalog changes\n\n" + b.String()
}

// entity is one thing with an identity, a display line and its fields.
type entity struct {
	key    string
	title  string
	fields []field
}

// diffEntities reports entities added, removed and changed, sorted by key.
func diffEntities(base, head []entity) []string {
	bm, hm := index(base), index(head)
	var added, removed, changed []string
	for _, k := range slices.Sorted(maps.Keys(hm)) {
		if _, ok := bm[k]; !ok {
			added = append(added, "- "+hm[k].title)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(bm)) {
		h, ok := hm[k]
		if !ok {
			removed = append(removed, "- "+bm[k].title)
			continue
		}
		if lines := diffFields(bm[k].fields, h.fields); len(lines) > 0 {
			changed = append(changed, "- "+h.title)
			for _, l := range lines {
				changed = append(changed, "  - "+l)
			}
		}
	}
	var out []string
	for _, g := range []struct {
		name  string
		lines []string
	}{{"Added", added}, {"Removed", removed}, {"Changed", changed}} {
		if len(g.lines) > 0 {
			if len(out) > 0 {
				out = append(out, "")
			}
			out = append(out, fmt.Sprintf("%s (%d):", g.name, countTop(g.lines)), "")
			out = append(out, g.lines...)
		}
	}
	return out
}

func countTop(lines []string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "- ") {
			n++
		}
	}
	return n
}

func index(es []entity) map[string]entity {
	m := make(map[string]entity, len(es))
	for _, e := range es {
		m[e.key] = e
	}
	return m
}

func gpuChanges(base, head *catalog.Catalog) []string {
	conv := func(c *catalog.Catalog) []entity {
		var out []entity
		for _, g := range c.GPUs {
			out = append(out, entity{key: g.ID, title: fmt.Sprintf("`%s` %s (%s, %s GB)", g.ID, g.Name, g.Vendor, num(g.MemoryGB)), fields: flatten(g)})
		}
		return out
	}
	return diffEntities(conv(base), conv(head))
}

func providerChanges(base, head *catalog.Catalog) []string {
	conv := func(c *catalog.Catalog) []entity {
		var out []entity
		for _, p := range c.Providers {
			out = append(out, entity{key: p.ID, title: fmt.Sprintf("`%s` %s (%s)", p.ID, p.Name, p.Kind), fields: flatten(p)})
		}
		return out
	}
	return diffEntities(conv(base), conv(head))
}

func modelChanges(base, head *catalog.Catalog) []string {
	conv := func(c *catalog.Catalog) []entity {
		var out []entity
		for _, m := range c.Models {
			out = append(out, entity{key: m.ID, title: fmt.Sprintf("`%s` %s", m.ID, m.Name), fields: flatten(m)})
		}
		return out
	}
	return diffEntities(conv(base), conv(head))
}

// offerKey is an offer's identity: its provider and instance name.
func offerKey(o *catalog.Offer) string { return o.Provider.ID + "\x00" + o.Instance }

func offerName(o *catalog.Offer) string {
	return fmt.Sprintf("`%s` %s", o.Provider.ID, o.Instance)
}

func offerChanges(base, head *catalog.Catalog) []string {
	conv := func(c *catalog.Catalog) []entity {
		var out []entity
		for _, o := range c.Offers {
			var fs []field
			for _, f := range flatten(o) {
				if !strings.HasPrefix(f.name, "prices.") {
					fs = append(fs, f)
				}
			}
			out = append(out, entity{key: offerKey(o), title: fmt.Sprintf("%s (%dx %s)", offerName(o), o.GPUCount, o.GPUID), fields: fs})
		}
		return out
	}
	return diffEntities(conv(base), conv(head))
}

// priceChanges reports, for every offer in both catalogs, each price
// (billing mode, term, unit, region: one price key) whose current
// observation changed (old -> new with both dates), was added or was
// removed, and the earlier observations (history) added or removed.
func priceChanges(base, head *catalog.Catalog) []string {
	bo := map[string]*catalog.Offer{}
	for _, o := range base.Offers {
		bo[offerKey(o)] = o
	}
	ho := map[string]*catalog.Offer{}
	for _, o := range head.Offers {
		ho[offerKey(o)] = o
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(ho)) {
		h := ho[k]
		b, ok := bo[k]
		if !ok {
			continue // a new offer: its prices are listed with it
		}
		bc, hc := currentByKey(b), currentByKey(h)
		keys := slices.Collect(maps.Keys(hc))
		for pk := range bc {
			if _, ok := hc[pk]; !ok {
				keys = append(keys, pk)
			}
		}
		slices.SortFunc(keys, keyCompare)
		for _, pk := range keys {
			bp, bok := bc[pk]
			hp, hok := hc[pk]
			var parts []string
			switch {
			case bok && hok:
				if l := priceChange(bp, b.Currency, hp, h.Currency); l != "" {
					parts = append(parts, l)
				}
			case hok:
				parts = append(parts, "added "+price(hp, h.Currency))
			case bok:
				parts = append(parts, "removed; was "+price(bp, b.Currency))
			}
			parts = append(parts, historyChanges(b, h, pk, bp, hp)...)
			if len(parts) > 0 {
				out = append(out, fmt.Sprintf("- %s, %s: %s", offerName(h), pk, strings.Join(parts, "; ")))
			}
		}
	}
	if len(out) > 0 {
		out = append([]string{fmt.Sprintf("Changed (%d):", len(out)), ""}, out...)
	}
	return out
}

// keyOf is a price's key for comparing two catalogs: a price that names
// no region, of an offer sold in one region, is that region's price (so
// pinning it to the region, as an import does, is no change).
func keyOf(o *catalog.Offer, p catalog.Price) catalog.PriceKey {
	k := p.Key()
	if k.Region == "" && len(o.Regions) == 1 {
		k.Region = o.Regions[0]
	}
	return k
}

// currentByKey maps each price key of the offer to its current
// observation (the newest of the key).
func currentByKey(o *catalog.Offer) map[catalog.PriceKey]catalog.Price {
	m := map[catalog.PriceKey]catalog.Price{}
	for _, p := range o.Prices {
		k := keyOf(o, p)
		if q, ok := m[k]; !ok || p.AsOf.After(q.AsOf) {
			m[k] = p
		}
	}
	return m
}

// history is every observation of a key, oldest first.
func history(o *catalog.Offer, k catalog.PriceKey) []catalog.Price {
	var out []catalog.Price
	for _, p := range o.Prices {
		if keyOf(o, p) == k {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b catalog.Price) int { return a.AsOf.Compare(b.AsOf) })
	return out
}

// keyCompare orders price keys: billing mode (on-demand, committed, spot),
// term, unit, payment, commitment, region.
func keyCompare(a, b catalog.PriceKey) int {
	mi := func(m string) int {
		if i := slices.Index(catalog.BillingModes(), m); i >= 0 {
			return i
		}
		return len(catalog.BillingModes())
	}
	if c := mi(a.Billing) - mi(b.Billing); c != 0 {
		return c
	}
	if c := a.TermMonths - b.TermMonths; c != 0 {
		return c
	}
	for _, c := range []int{strings.Compare(a.Unit, b.Unit), strings.Compare(a.Payment, b.Payment), strings.Compare(a.Commitment, b.Commitment)} {
		if c != 0 {
			return c
		}
	}
	return strings.Compare(a.Region, b.Region)
}

// historyChanges lists the earlier observations of a price key added in
// head or removed from base (the current observations are reported by
// priceChange; a base current price kept as history in head is the
// change itself, not an addition).
func historyChanges(b, h *catalog.Offer, k catalog.PriceKey, bcur, hcur catalog.Price) []string {
	id := func(p catalog.Price) string { return p.AsOf.Format(time.DateOnly) + "\x00" + num(p.Price) }
	bset, hset := map[string]bool{}, map[string]bool{}
	for _, p := range history(b, k) {
		bset[id(p)] = true
	}
	for _, p := range history(h, k) {
		hset[id(p)] = true
	}
	var out []string
	for _, p := range history(h, k) {
		if !bset[id(p)] && !(p.AsOf.Equal(hcur.AsOf) && p.Price == hcur.Price) {
			out = append(out, "earlier observation added: "+price(p, h.Currency))
		}
	}
	for _, p := range history(b, k) {
		if !hset[id(p)] && !(p.AsOf.Equal(bcur.AsOf) && p.Price == bcur.Price) {
			out = append(out, "earlier observation removed: "+price(p, b.Currency))
		}
	}
	return out
}

// priceChange describes a change of one billing mode's price, or returns
// "" when nothing changed.
func priceChange(bp catalog.Price, bcur string, hp catalog.Price, hcur string) string {
	var parts []string
	if bp.Price != hp.Price || bcur != hcur || !bp.AsOf.Equal(hp.AsOf) {
		s := price(bp, bcur) + " -> " + price(hp, hcur)
		if bcur == hcur && bp.Price > 0 {
			s += fmt.Sprintf(" (%+.1f%%)", (hp.Price-bp.Price)/bp.Price*100)
		} else if bcur != hcur {
			s += " (currency changed)"
		}
		parts = append(parts, s)
	}
	if bp.Source != hp.Source {
		parts = append(parts, fmt.Sprintf("source %s -> %s", bp.Source, hp.Source))
	}
	if bp.Dataset != hp.Dataset {
		parts = append(parts, fmt.Sprintf("dataset %s -> %s", orNone(bp.Dataset), orNone(hp.Dataset)))
	}
	return strings.Join(parts, "; ")
}

func price(p catalog.Price, currency string) string {
	return fmt.Sprintf("%s %s (as of %s)", money(p.Price), currency, p.AsOf.Format(time.DateOnly))
}

// money formats an amount with at least two decimals and no rounding:
// 20 -> 20.00, 1.1 -> 1.10, 0.92361 -> 0.92361.
func money(f float64) string {
	s := num(f)
	i := strings.IndexByte(s, '.')
	switch {
	case i < 0:
		return s + ".00"
	case len(s)-i-1 < 2:
		return s + strings.Repeat("0", 2-(len(s)-i-1))
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// field is one flattened value: a TOML key path and its display form.
type field struct{ name, value string }

// diffFields lists the fields that differ, in the order of head (then
// fields only base has), as "name: old -> new". Sources are compared as a
// set and reported as added or removed.
func diffFields(base, head []field) []string {
	bm := map[string]string{}
	for _, f := range base {
		bm[f.name] = f.value
	}
	hm := map[string]string{}
	for _, f := range head {
		hm[f.name] = f.value
	}
	var out []string
	for _, f := range head {
		if strings.HasPrefix(f.name, "sources") {
			continue
		}
		if old, ok := bm[f.name]; !ok {
			out = append(out, fmt.Sprintf("%s: (none) -> %s", f.name, f.value))
		} else if old != f.value {
			out = append(out, fmt.Sprintf("%s: %s -> %s", f.name, old, f.value))
		}
	}
	for _, f := range base {
		if _, ok := hm[f.name]; !ok && !strings.HasPrefix(f.name, "sources") {
			out = append(out, fmt.Sprintf("%s: %s -> (none)", f.name, f.value))
		}
	}
	bs, hs := sourceSet(base), sourceSet(head)
	for _, s := range slices.Sorted(maps.Keys(hs)) {
		if !bs[s] {
			out = append(out, "source added: "+s)
		}
	}
	for _, s := range slices.Sorted(maps.Keys(bs)) {
		if !hs[s] {
			out = append(out, "source removed: "+s)
		}
	}
	return out
}

func sourceSet(fs []field) map[string]bool {
	m := map[string]bool{}
	for _, f := range fs {
		if f.name == "sources" {
			for _, s := range strings.Split(f.value, "\n") {
				m[s] = true
			}
		}
	}
	return m
}

// flatten lists the TOML fields of a catalog struct with their values, in
// declaration order. Nested tables become dotted keys, arrays of tables
// get an index ("regions.0.id"), and unset optional values (nil pointers,
// empty strings) are left out.
// Sources are folded into one field (one line per source) so they can be
// compared as a set.
func flatten(v any) []field {
	var out []field
	var walk func(prefix string, rv reflect.Value)
	walk = func(prefix string, rv reflect.Value) {
		for rv.Kind() == reflect.Pointer {
			if rv.IsNil() {
				return
			}
			rv = rv.Elem()
		}
		if rv.Type() == reflect.TypeFor[[]catalog.Source]() {
			var lines []string
			for _, s := range rv.Interface().([]catalog.Source) {
				lines = append(lines, fmt.Sprintf("%s (%q, accessed %s)", s.URL, s.Title, s.Accessed.Format(time.DateOnly)))
			}
			if len(lines) > 0 {
				sort.Strings(lines)
				out = append(out, field{prefix, strings.Join(lines, "\n")})
			}
			return
		}
		switch {
		case rv.Type() == reflect.TypeFor[time.Time]():
			out = append(out, field{prefix, rv.Interface().(time.Time).Format(time.DateOnly)})
		case rv.Kind() == reflect.Struct:
			for _, f := range tomlpos.Fields(rv.Type()) {
				walk(join(prefix, tomlpos.KeyOf(f)), rv.FieldByIndex(f.Index))
			}
		case rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.String:
			var items []string
			for i := 0; i < rv.Len(); i++ {
				items = append(items, strconv.Quote(rv.Index(i).String()))
			}
			if len(items) > 0 {
				out = append(out, field{prefix, "[" + strings.Join(items, ", ") + "]"})
			}
		case rv.Kind() == reflect.Slice:
			for i := 0; i < rv.Len(); i++ {
				walk(join(prefix, strconv.Itoa(i)), rv.Index(i))
			}
		case rv.Kind() == reflect.String:
			if rv.String() != "" {
				out = append(out, field{prefix, strconv.Quote(rv.String())})
			}
		case rv.Kind() == reflect.Float64:
			out = append(out, field{prefix, num(rv.Float())})
		case rv.Kind() == reflect.Int, rv.Kind() == reflect.Int64:
			out = append(out, field{prefix, strconv.FormatInt(rv.Int(), 10)})
		case rv.Kind() == reflect.Bool:
			out = append(out, field{prefix, strconv.FormatBool(rv.Bool())})
		}
	}
	walk("", reflect.ValueOf(v))
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}
