package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
)

// cmdImport turns a third-party price table into offers TOML for review,
// reporting every row it cannot map or that fails a check.
func cmdImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "", "input format: "+strings.Join(importer.Formats(), " or "))
	out := fs.String("out", "import-out", "directory to write one offers file per provider into")
	root := fs.String("root", ".", "site root whose data/ the rows are checked against (GPU ids and memory, providers, regions)")
	asOf := fs.String("as-of", "", "YYYY-MM-DD: the date the prices were true (required for skypilot, and for fsdl without a \"Row Last Changed\" column)")
	provider := fs.String("provider", "", "skypilot: the provider id (default: from the file's directory, e.g. aws/vms.csv)")
	source := fs.String("source", "", "skypilot, gcp, azure, aws: the URL the file was read from (a pinned commit)")
	evidence := fs.String("evidence", "", "gcp, azure, aws (skypilot optional): the prices' evidence kind: "+strings.Join(catalog.EvidenceKinds(), ", "))
	dateBasis := fs.String("date-basis", "", "how -as-of was established: "+strings.Join(catalog.DateBases(), ", ")+" (a date the file states is page-date)")
	currency := fs.String("currency", "", "azure, aws: the prices' currency when the file does not say (default USD)")
	merge := fs.Bool("merge", false, "merge into -root's data/ instead of writing -out: new observations are appended to existing offers (history), new offers and the file's regions and hidden costs added; nothing is overwritten")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: generator import -format fsdl|skypilot|gcp|azure|aws FILE [-out DIR | -merge] [-root DIR] [-as-of YYYY-MM-DD] [-date-basis B] [-provider ID] [-source URL] [-evidence KIND] [-currency CUR]")
		fmt.Fprintln(stderr, "\nReports every row it cannot import as FILE:LINE:COL: message (every fault of the row), writes the rest as")
		fmt.Fprintln(stderr, "offers TOML for review (or merges it with -merge), and exits 0 (reports are expected); 2 on usage errors.")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 || *format == "" {
		fs.Usage()
		return 2
	}
	now, err := site.Today()
	if err != nil {
		fmt.Fprintln(stderr, "import:", err)
		return 2
	}
	o := importer.Options{Format: *format, File: pos[0], Provider: *provider, Source: *source, Now: now,
		Evidence: *evidence, DateBasis: *dateBasis, Currency: *currency}
	if *asOf != "" {
		d, err := time.Parse(time.DateOnly, *asOf)
		if err != nil || d.After(now) {
			fmt.Fprintf(stderr, "import: -as-of %q is not a date (YYYY-MM-DD) up to today\n", *asOf)
			return 2
		}
		o.AsOf = d
	}
	cat, d := catalog.Load(*root, now)
	if cat == nil {
		d.Print(stderr)
		fmt.Fprintf(stderr, "import: the catalog under %s does not load; rows cannot be checked against it\n", *root)
		return 1
	}
	o.Catalog = cat
	res, code := importFile(o, stderr)
	if res == nil {
		return code
	}
	if *merge && len(res.Regions()) > 0 {
		if res, code = importDeclaringRegions(*root, res, o, stdout, stderr); res == nil {
			return code
		}
	}
	res.Reports.Print(stderr)
	summary := importSummary(res)
	if *merge {
		return importMerge(*root, res, summary, stdout, stderr)
	}
	paths, err := importer.WriteDir(*out, res)
	if err != nil {
		fmt.Fprintln(stderr, "import:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s; wrote %d file(s) to %s for review\n", summary, len(paths), *out)
	return 0
}

// importFile imports o.File. On failure it prints the error to stderr
// and returns a nil result and the exit code: 2 for a file that cannot
// be opened or a usage error, 1 otherwise.
func importFile(o importer.Options, stderr io.Writer) (*importer.Result, int) {
	f, err := os.Open(o.File)
	if err != nil {
		fmt.Fprintln(stderr, "import:", err)
		return nil, 2
	}
	defer f.Close()
	res, err := importer.Import(f, o)
	var usageErr *importer.UsageError
	switch {
	case errors.As(err, &usageErr):
		fmt.Fprintln(stderr, "import:", err)
		return nil, 2
	case err != nil:
		fmt.Fprintln(stderr, "import:", err)
		return nil, 1
	}
	return res, 0
}

// importDeclaringRegions declares in root's provider files the regions
// that res names and they lack and, when it declared any, imports o.File
// again against the reloaded catalog; otherwise it returns res. On
// failure it prints why to stderr and returns a nil result and the exit
// code.
func importDeclaringRegions(root string, res *importer.Result, o importer.Options, stdout, stderr io.Writer) (*importer.Result, int) {
	n, _, err := importer.DeclareRegions(root, res.Regions())
	if err != nil {
		fmt.Fprintln(stderr, "import:", err)
		return nil, 1
	}
	if n == 0 {
		return res, 0
	}
	fmt.Fprintf(stdout, "declared %d region(s) the file names\n", n)
	cat, d := catalog.Load(root, o.Now)
	if cat == nil {
		d.Print(stderr)
		return nil, 1
	}
	o.Catalog = cat
	return importFile(o, stderr)
}

// importSummary describes in one line how many rows were imported,
// reported and skipped (with the reasons for skipping, sorted).
func importSummary(res *importer.Result) string {
	summary := fmt.Sprintf("%d rows imported, %d rows reported", res.Imported, res.Reported)
	if res.Skipped > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(res.SkipReasons)) {
			parts = append(parts, fmt.Sprintf("%d %s", res.SkipReasons[k], k))
		}
		summary += fmt.Sprintf(", %d rows skipped (%s)", res.Skipped, strings.Join(parts, "; "))
	}
	return summary
}

// importMerge merges res into root's data/, prints its conflicts to
// stderr and the summary with what was merged to stdout, and returns
// the exit code.
func importMerge(root string, res *importer.Result, summary string, stdout, stderr io.Writer) int {
	rep, err := importer.MergeInto(root, res)
	if err != nil {
		fmt.Fprintln(stderr, "import:", err)
		return 1
	}
	for _, c := range rep.Conflicts {
		fmt.Fprintln(stderr, "merge:", c)
	}
	fmt.Fprintf(stdout, "%s; merged: %d new observation(s), %d new offer(s), %d cost entr(y/ies), %d kept as they were, %d conflict(s); wrote %s\n",
		summary, rep.Prices, rep.Offers, rep.Costs, rep.Kept, len(rep.Conflicts), strings.Join(rep.Files, ", "))
	return 0
}
