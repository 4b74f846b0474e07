package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/scaffold"
)

// cmdNew writes a commented template for a new catalog entry or guide.
func cmdNew(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("new", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "site root holding data/ and content/")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: generator new %s ID [-root DIR]\n\n", strings.Join(scaffold.Kinds(), "|"))
		fmt.Fprintln(stderr, "Writes data/gpus/ID.toml, data/providers/ID.toml, data/models/ID.toml or content/guides/ID.md;")
		fmt.Fprintln(stderr, "\"offer ID\" appends an offer to data/offers/ID.toml (ID is a provider). Existing files are never overwritten.")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 2 {
		fs.Usage()
		return 2
	}
	rel, err := scaffold.New(*root, pos[0], pos[1])
	var usageErr *scaffold.UsageError
	switch {
	case errors.As(err, &usageErr):
		fmt.Fprintln(stderr, "new:", err)
		return 2
	case err != nil:
		fmt.Fprintln(stderr, "new:", err)
		return 1
	}
	fmt.Fprintf(stdout, "new: wrote %s; fill in every \"required\" line, then run: go run ./generator check\n", rel)
	return 0
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments, and returns the positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
