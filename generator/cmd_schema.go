package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/schema"
)

// cmdSchema writes the JSON Schemas of the data files (for editors that
// read a `#:schema` line) into a directory.
func cmdSchema(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "schema", "directory to write the data files' JSON Schemas (gpu.json, provider.json, offers.json, model.json, calibration.json, ...) into")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "schema: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	paths, err := schema.Write(*out)
	if err != nil {
		fmt.Fprintln(stderr, "schema:", err)
		return 1
	}
	fmt.Fprintf(stdout, "schema: wrote %d schemas to %s\n", len(paths), *out)
	return 0
}
